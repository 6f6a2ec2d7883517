package dev.punctual.handler;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * An HTTP client that never opens a connection: it answers every request itself with {@code 200} and an
 * empty JSON object, which the DynamoDB and EventBridge JSON protocols read as a response with no
 * fields. Only {@link Rehearsal}'s clients use it, so that a delivery's SDK calls can be walked through
 * in the init phase without sending anything.
 */
final class LocalAnswerHttpClient implements SdkHttpClient {

    private static final byte[] EMPTY_OBJECT = "{}".getBytes(StandardCharsets.UTF_8);

    private final AtomicInteger answered = new AtomicInteger();

    /** How many requests it answered (a rehearsal's calls that reached the HTTP stage). */
    int answered() {
        return answered.get();
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                answered.incrementAndGet();
                return HttpExecuteResponse.builder()
                        .response(SdkHttpResponse.builder()
                                .statusCode(200)
                                .putHeader("Content-Type", "application/x-amz-json-1.0")
                                .putHeader("Content-Length", String.valueOf(EMPTY_OBJECT.length))
                                .build())
                        .responseBody(AbortableInputStream.create(new ByteArrayInputStream(EMPTY_OBJECT)))
                        .build();
            }

            @Override
            public void abort() {
                // nothing in flight
            }
        };
    }

    @Override
    public String clientName() {
        return "PunctualLocalAnswer";
    }

    @Override
    public void close() {
        // no connection to close
    }
}
