package dev.punctual.testing;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * The HTTP skeleton the protocol-level stand-ins share (the Lambda Invoke one here, the Logs Insights one
 * in the CLI's tests): a server on a free loopback port, where the SDK's clients point
 * ({@code endpointOverride}), stopped on close. Each stand-in only supplies its handler.
 */
public final class LoopbackServer implements AutoCloseable {

    private final HttpServer server;

    private LoopbackServer(HttpServer server) {
        this.server = server;
    }

    /**
     * Starts serving every path under {@code context} with {@code handler}.
     *
     * @param threadName the name of the one daemon thread requests are handled on, one at a time; null
     *     for the server's own dispatcher thread
     */
    public static LoopbackServer start(String context, HttpHandler handler, String threadName) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext(context, handler);
            if (threadName != null) {
                server.setExecutor(single(threadName));
            }
            server.start();
            return new LoopbackServer(server);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Executor single(String threadName) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, threadName);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Where the SDK's client should point. */
    public URI endpoint() {
        return URI.create("http://" + server.getAddress().getHostString() + ":"
                + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
