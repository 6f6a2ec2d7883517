package dev.punctual.handler;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.sun.net.httpserver.HttpExchange;
import dev.punctual.job.JobCatalog;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import dev.punctual.testing.LoopbackServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * A local stand-in for the Lambda Invoke API: an HTTP server on loopback answering
 * {@code POST /2015-03-31/functions/{FunctionName}/invocations} the way Lambda does, by running the real
 * {@link PunctualHandler} in-process, wired as {@link Wiring} wires it in a function (here against a
 * DynamoDB-protocol emulator). The SDK's {@code LambdaClient} talks to it through {@code endpointOverride};
 * nothing is mocked at the Java level.
 *
 * <p>What it honours of the protocol: the function name as an ARN, {@code name:alias} or a name plus the
 * {@code Qualifier} query parameter; {@code X-Amz-Invocation-Type} {@code RequestResponse} (200 and the
 * handler's output), {@code Event} (202, run before answering) and {@code DryRun} (204);
 * {@code X-Amz-Log-Type: Tail} (the last 4 KB of the invocation's log lines, base64, in
 * {@code X-Amz-Log-Result}); an exception thrown by the handler as 200 with
 * {@code X-Amz-Function-Error: Unhandled} and Lambda's {@code errorMessage}/{@code errorType} body; an
 * unknown function as 404 {@code ResourceNotFoundException}. The function's budget is its timeout less
 * what the function's clock says has passed since the invocation began, so a test clock that moves
 * makes an invocation run out of time deterministically. One invocation at a time.
 *
 * <p>Usage:
 *
 * <pre>{@code
 * try (LambdaInvokeStandIn lambda = LambdaInvokeStandIn.start()) {
 *     lambda.deploy(aliasArn, LambdaInvokeStandIn.environment("dev", ledger, domain, "default", moto), timeout, clock);
 *     LambdaClient client = LambdaClient.builder().endpointOverride(lambda.endpoint())...;
 * }
 * }</pre>
 */
public final class LambdaInvokeStandIn implements AutoCloseable {

    /** Lambda's log tail is the last 4 KB. */
    private static final int TAIL_BYTES = 4096;

    /** One invocation as the stand-in saw it. */
    public record Invocation(String function, String invocationType, String payload, String response, boolean error) {}

    private record Deployed(String arn, PunctualHandler handler, Duration timeout, Clock clock, List<String> log) {}

    private LoopbackServer server;
    private final Map<String, Deployed> functions = new ConcurrentHashMap<>();
    private final List<Invocation> invocations = new CopyOnWriteArrayList<>();

    private LambdaInvokeStandIn() {}

    /** Starts the server on a free loopback port. */
    public static LambdaInvokeStandIn start() {
        LambdaInvokeStandIn standIn = new LambdaInvokeStandIn();
        standIn.server = LoopbackServer.start("/2015-03-31/functions/", standIn::handle, "lambda-invoke-stand-in");
        return standIn;
    }

    /** Where the SDK's Lambda client should point ({@code endpointOverride}). */
    public URI endpoint() {
        return server.endpoint();
    }

    /**
     * A function's environment as the CDK app writes it: the stage's flags and resource names, each
     * declared table's variable ({@code jobTables}: variable to table name), the region, and the DynamoDB
     * (and EventBridge) endpoint of the emulator the handler's clients use.
     */
    public static Map<String, String> environment(
            String stage, String ledgerTable, Map<String, String> jobTables, String pool, String region, URI dynamoDb) {
        Map<String, String> env =
                new LinkedHashMap<>(StageFlags.defaultsFor(stage).toEnvironment());
        env.putAll(new StageResources(ledgerTable, "punctual-" + stage, pool).toEnvironment());
        env.putAll(jobTables);
        env.put("AWS_REGION", region);
        env.put(Wiring.ENDPOINT, dynamoDb.toString());
        return env;
    }

    /**
     * Deploys a function under its alias ARN (e.g. {@code arn:aws:lambda:us-east-1:123456789012:function:f:live}):
     * the real handler, wired from {@code environment} as in Lambda, with dummy credentials.
     *
     * @param timeout the function's timeout: the budget each invocation starts with
     * @param clock the function's clock (the runtime's and the budget's)
     */
    public void deploy(String aliasArn, Map<String, String> environment, Duration timeout, Clock clock) {
        List<String> log = new CopyOnWriteArrayList<>();
        Consumer<String> sink = log::add;
        Wiring.Clients clients = Wiring.clients(
                environment,
                StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")));
        JobCatalog catalog = Wiring.catalog(environment, clock);
        PunctualHandler handler = new PunctualHandler(
                Wiring.runtime(environment, clients, catalog, clock, sink), Wiring.log(sink, clock), clock);
        functions.put(aliasArn, new Deployed(aliasArn, handler, timeout, clock, log));
    }

    /** Every invocation so far, oldest first. */
    public List<Invocation> invocations() {
        return List.copyOf(invocations);
    }

    /** The structured log lines the function with this alias ARN wrote so far (what CloudWatch would hold). */
    public List<String> logLines(String aliasArn) {
        Deployed function = functions.get(aliasArn);
        return function == null ? List.of() : List.copyOf(function.log());
    }

    @Override
    public void close() {
        server.close();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            if (!"POST".equals(exchange.getRequestMethod()) || !path.endsWith("/invocations")) {
                error(exchange, 400, "InvalidRequestContentException", "only POST .../invocations is served here");
                return;
            }
            String name = URLDecoder.decode(
                    path.substring("/2015-03-31/functions/".length(), path.length() - "/invocations".length()),
                    StandardCharsets.UTF_8);
            String qualifier = query(exchange.getRequestURI().getRawQuery(), "Qualifier");
            Deployed function = resolve(qualifier == null ? name : name + ":" + qualifier);
            if (function == null) {
                error(exchange, 404, "ResourceNotFoundException", "Function not found: " + name);
                return;
            }
            String type = header(exchange, "X-Amz-Invocation-Type", "RequestResponse");
            String payload = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if ("DryRun".equals(type)) {
                invocations.add(new Invocation(function.arn(), type, payload, "", false));
                respond(exchange, 204, Map.of(), new byte[0]);
                return;
            }
            invoke(exchange, function, type, payload);
        }
    }

    private void invoke(HttpExchange exchange, Deployed function, String type, String payload) throws IOException {
        int logStart = function.log().size();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-Amz-Executed-Version", "1");
        String body;
        boolean failed = false;
        try {
            function.handler()
                    .handleRequest(
                            new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)),
                            output,
                            new InvocationContext(function, function.clock().instant()));
            body = output.toString(StandardCharsets.UTF_8);
        } catch (RuntimeException | Error | IOException fault) {
            failed = true;
            headers.put("X-Amz-Function-Error", "Unhandled");
            body = "{\"errorMessage\":" + quote(String.valueOf(fault.getMessage())) + ",\"errorType\":"
                    + quote(fault.getClass().getName()) + ",\"stackTrace\":[]}";
        }
        invocations.add(new Invocation(function.arn(), type, payload, body, failed));
        if ("Tail".equals(header(exchange, "X-Amz-Log-Type", "None"))) {
            headers.put(
                    "X-Amz-Log-Result",
                    tail(function.log().subList(logStart, function.log().size())));
        }
        if ("Event".equals(type)) {
            respond(exchange, 202, headers, new byte[0]);
        } else {
            respond(exchange, 200, headers, body.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** By full alias ARN, or {@code function:alias} as the ARN ends, or a bare function name's {@code live}. */
    private Deployed resolve(String name) {
        Deployed exact = functions.get(name);
        if (exact != null) {
            return exact;
        }
        for (Deployed function : functions.values()) {
            String arn = function.arn();
            String nameAndAlias = arn.substring(arn.indexOf(":function:") + ":function:".length());
            if (nameAndAlias.equals(name)) {
                return function;
            }
        }
        return null;
    }

    private static String tail(List<String> lines) {
        byte[] all = String.join("\n", lines).getBytes(StandardCharsets.UTF_8);
        int from = Math.max(0, all.length - TAIL_BYTES);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOfRange(all, from, all.length));
    }

    private static void error(HttpExchange exchange, int status, String type, String message) throws IOException {
        respond(
                exchange,
                status,
                Map.of("X-Amzn-ErrorType", type),
                ("{\"Type\":\"User\",\"message\":" + quote(message) + "}").getBytes(StandardCharsets.UTF_8));
    }

    private static void respond(HttpExchange exchange, int status, Map<String, String> headers, byte[] body)
            throws IOException {
        headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.getResponseHeaders().add("x-amzn-RequestId", UUID.randomUUID().toString());
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static String header(HttpExchange exchange, String name, String fallback) {
        String value = exchange.getRequestHeaders().getFirst(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static String query(String rawQuery, String name) {
        if (rawQuery == null) {
            return null;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private static String quote(String text) {
        StringBuilder s = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        return s.append('"').toString();
    }

    /** Lambda's context for one invocation: a request id and the budget left by the function's clock. */
    private static final class InvocationContext implements Context {
        private final Deployed function;
        private final Instant started;
        private final String requestId = UUID.randomUUID().toString();

        InvocationContext(Deployed function, Instant started) {
            this.function = function;
            this.started = started;
        }

        @Override
        public String getAwsRequestId() {
            return requestId;
        }

        @Override
        public int getRemainingTimeInMillis() {
            Duration used = Duration.between(started, function.clock().instant());
            return (int) Math.max(0, function.timeout().minus(used).toMillis());
        }

        @Override
        public String getLogGroupName() {
            return "/aws/lambda/" + getFunctionName();
        }

        @Override
        public String getLogStreamName() {
            return "stand-in";
        }

        @Override
        public String getFunctionName() {
            String arn = function.arn();
            String[] parts = arn.split(":");
            return parts.length > 6 ? parts[6] : arn;
        }

        @Override
        public String getFunctionVersion() {
            return "1";
        }

        @Override
        public String getInvokedFunctionArn() {
            return function.arn();
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
            return 512;
        }

        @Override
        public LambdaLogger getLogger() {
            return new LambdaLogger() {
                @Override
                public void log(String message) {
                    function.log().add(message);
                }

                @Override
                public void log(byte[] message) {
                    function.log().add(new String(message, StandardCharsets.UTF_8));
                }
            };
        }
    }
}
