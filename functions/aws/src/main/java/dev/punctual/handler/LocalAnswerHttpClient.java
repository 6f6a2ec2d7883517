package dev.punctual.handler;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * An HTTP client that never opens a connection: it answers every request itself with {@code 200} and an
 * empty JSON object, which the DynamoDB and EventBridge JSON protocols read as a response with no
 * fields. The answer carries the headers the services send (DynamoDB's CRC32 of the body, each
 * protocol's content type), so the SDK's response path is the one a real answer takes. Only
 * {@link Rehearsal}'s clients use it, so that a delivery's SDK calls can be walked through in the init
 * phase without sending anything.
 */
final class LocalAnswerHttpClient implements SdkHttpClient {

    private static final byte[] EMPTY_OBJECT = "{}".getBytes(StandardCharsets.UTF_8);
    /** CRC32 of {@code {}}: DynamoDB sends the body's CRC32 and the SDK checks it. */
    private static final String EMPTY_OBJECT_CRC32 = "2745614147";

    private static final String TARGET = "X-Amz-Target";
    private static final String DYNAMODB_TARGET = "DynamoDB_20120810.";

    private final int status;
    private final List<String> answered = new CopyOnWriteArrayList<>();

    /** Answers {@code 200}: the rehearsal's client. */
    LocalAnswerHttpClient() {
        this(200);
    }

    /** Answers with another status (tests: a rehearsal whose calls are refused). */
    LocalAnswerHttpClient(int status) {
        this.status = status;
    }

    /** The operations it answered, in order (each request's {@code X-Amz-Target}). */
    List<String> answered() {
        return List.copyOf(answered);
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        String target = request.httpRequest().firstMatchingHeader(TARGET).orElse("(no target)");
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                answered.add(target);
                return HttpExecuteResponse.builder()
                        .response(answer(status, target))
                        .responseBody(AbortableInputStream.create(new ByteArrayInputStream(EMPTY_OBJECT)))
                        .build();
            }

            @Override
            public void abort() {
                // nothing in flight
            }
        };
    }

    private static SdkHttpResponse answer(int status, String target) {
        SdkHttpResponse.Builder response = SdkHttpResponse.builder()
                .statusCode(status)
                .putHeader("Content-Length", String.valueOf(EMPTY_OBJECT.length));
        if (target.startsWith(DYNAMODB_TARGET)) {
            return response.putHeader("Content-Type", "application/x-amz-json-1.0")
                    .putHeader("x-amz-crc32", EMPTY_OBJECT_CRC32)
                    .build();
        }
        return response.putHeader("Content-Type", "application/x-amz-json-1.1").build();
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
