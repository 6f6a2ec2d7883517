package dev.punctual.cli.stage;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.LogType;

/**
 * Runs a payload in a deployed stage's function: Lambda {@code Invoke} ({@code RequestResponse}) on the
 * {@code live} alias of the job's pool, so the job runs with the function's role, environment and
 * network, exactly as a scheduled delivery would (payload shapes: events/README.md).
 */
public final class RemoteInvocation {

    /**
     * What the function answered.
     *
     * @param functionArn the alias invoked
     * @param body the function's output: the result JSON, or Lambda's error object when it threw
     * @param functionError Lambda's {@code X-Amz-Function-Error} ({@code Unhandled}) when the handler threw
     * @param logTail the invocation's last log lines (up to 4 KB), when asked for
     */
    public record Answer(String functionArn, String body, Optional<String> functionError, List<String> logTail) {}

    private final LambdaClient lambda;
    private final DeployedStage stage;

    public RemoteInvocation(LambdaClient lambda, DeployedStage stage) {
        this.lambda = lambda;
        this.stage = stage;
    }

    /**
     * Invokes the pool's alias with the payload and waits for the answer.
     *
     * @param withLogTail also fetch the invocation's log tail ({@code LogType=Tail})
     */
    public Answer invoke(String pool, String payload, boolean withLogTail) {
        String alias = stage.aliasOf(pool);
        InvokeResponse response = lambda.invoke(b -> b.functionName(alias)
                .invocationType(InvocationType.REQUEST_RESPONSE)
                .logType(withLogTail ? LogType.TAIL : LogType.NONE)
                .payload(SdkBytes.fromUtf8String(payload)));
        String body = response.payload() == null ? "" : response.payload().asUtf8String();
        List<String> tail = response.logResult() == null
                ? List.of()
                : new String(Base64.getDecoder().decode(response.logResult()), StandardCharsets.UTF_8)
                        .lines()
                        .toList();
        return new Answer(alias, body, Optional.ofNullable(response.functionError()), tail);
    }

    public DeployedStage stage() {
        return stage;
    }
}
