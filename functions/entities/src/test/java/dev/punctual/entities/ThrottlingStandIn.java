package dev.punctual.entities;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP stand-in in front of moto's Scheduler API that answers some CreateSchedule requests as
 * EventBridge Scheduler does when its quota is exceeded (HTTP 429, {@code x-amzn-ErrorType:
 * ThrottlingException}), and passes every other request through unchanged. The SDK sees the real
 * protocol, so its retry strategy, not a mock, decides what happens.
 */
final class ThrottlingStandIn implements AutoCloseable {

    /** Headers the JDK's client sets itself and refuses from a caller. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private final HttpServer server;
    private final HttpClient forward = HttpClient.newHttpClient();
    private final URI upstream;
    private final int everyNth;
    private final AtomicInteger creates = new AtomicInteger();
    private final AtomicInteger throttled = new AtomicInteger();
    private final AtomicInteger names = new AtomicInteger();
    private final Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * @param everyNth throttles the first CreateSchedule of the n-th, 2n-th, ... schedule name to arrive;
     *     its retry, and every request for a name seen before, passes. Which names are throttled depends on
     *     arrival order only, never on timing: counting every request instead let one schedule's retries
     *     keep landing on the n-th slots while other writers advanced the count, so on a slow machine the
     *     SDK ran out of attempts (a flaky test, not a finding).
     */
    ThrottlingStandIn(URI upstream, int everyNth) throws IOException {
        this.upstream = upstream;
        this.everyNth = everyNth;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** CreateSchedule requests that arrived, throttled ones included. */
    int createRequests() {
        return creates.get();
    }

    int throttled() {
        return throttled.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            // The REST-JSON protocol's CreateSchedule is POST /schedules/{Name}.
            boolean create = exchange.getRequestMethod().equals("POST")
                    && exchange.getRequestURI().getPath().startsWith("/schedules/");
            boolean firstOfName = create && seen.add(exchange.getRequestURI().getPath());
            if (create) {
                creates.incrementAndGet();
            }
            if (firstOfName && names.incrementAndGet() % everyNth == 0) {
                throttled.incrementAndGet();
                byte[] error = "{\"Message\":\"Rate exceeded\"}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.getResponseHeaders().add("x-amzn-ErrorType", "ThrottlingException");
                exchange.sendResponseHeaders(429, error.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(error);
                }
                return;
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(upstream.resolve(exchange.getRequestURI()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
                    values.forEach(v -> request.header(name, v));
                }
            });
            HttpResponse<byte[]> response = forward.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().map().forEach((name, values) -> {
                if (!RESTRICTED.contains(name.toLowerCase(java.util.Locale.ROOT))
                        && !name.equalsIgnoreCase("transfer-encoding")
                        && !name.startsWith(":")) {
                    values.forEach(v -> exchange.getResponseHeaders().add(name, v));
                }
            });
            byte[] answer = response.body();
            exchange.sendResponseHeaders(response.statusCode(), answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        forward.close();
    }
}
