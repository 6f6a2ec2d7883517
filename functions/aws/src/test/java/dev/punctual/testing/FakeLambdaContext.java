package dev.punctual.testing;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

/** What Lambda passes a handler; only the request id and the remaining time matter to Punctual. */
public final class FakeLambdaContext implements Context {

    private final String requestId;
    private final int remainingMillis;

    public FakeLambdaContext(String requestId, int remainingMillis) {
        this.requestId = requestId;
        this.remainingMillis = remainingMillis;
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return remainingMillis;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/punctual-test";
    }

    @Override
    public String getLogStreamName() {
        return "test";
    }

    @Override
    public String getFunctionName() {
        return "punctual-test";
    }

    @Override
    public String getFunctionVersion() {
        return "1";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:123456789012:function:punctual-test:live";
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getMemoryLimitInMB() {
        return 1024;
    }

    @Override
    public LambdaLogger getLogger() {
        return null;
    }
}
