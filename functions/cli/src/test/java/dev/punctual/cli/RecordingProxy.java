package dev.punctual.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A loopback HTTP proxy in front of the emulator that records every AWS request passing through it, as
 * IAM authorises it: a DynamoDB request as one {@link Access} per item (each item of a
 * TransactWriteItems on its own, as {@code dynamodb:PutItem}, {@code UpdateItem}, {@code DeleteItem} or
 * {@code ConditionCheckItem}), with its partition key and every attribute name it carries; any other
 * request by its target. The CLI runs unchanged with {@code --endpoint} pointed here, so what is recorded
 * is what the command itself sends, whichever client in it sends it (an SDK interceptor would need a way
 * into every client the CLI builds; the wire needs none).
 */
public final class RecordingProxy implements AutoCloseable {

    /**
     * One authorisation.
     *
     * @param action {@code service:Operation}, e.g. {@code dynamodb:UpdateItem}
     * @param table the DynamoDB table, or null for another service
     * @param partitionKey {@code dynamodb:LeadingKeys}, or null when the request names no item
     * @param attributes {@code dynamodb:Attributes}: the key, a put's item, every name the expressions use
     * @param returnValues {@code dynamodb:ReturnValues}
     * @param request the request's own operation (TransactWriteItems for a transaction's items)
     */
    public record Access(
            String action,
            String table,
            String partitionKey,
            String sortKey,
            Set<String> attributes,
            String returnValues,
            String request) {

        boolean writes() {
            return Set.of("dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem")
                    .contains(action);
        }

        @Override
        public String toString() {
            return action + " " + (partitionKey == null ? table : partitionKey + " / " + sortKey) + " naming "
                    + attributes
                    + (request.equals(action.substring(action.indexOf(':') + 1)) ? "" : " (in " + request + ")");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Headers java.net.http sets itself (and refuses), or that describe this hop only. */
    private static final Set<String> HOP =
            Set.of("connection", "content-length", "expect", "host", "upgrade", "transfer-encoding", "keep-alive");

    private final URI target;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<Access> recorded = new CopyOnWriteArrayList<>();

    public RecordingProxy(URI target) {
        this.target = target;
        try {
            this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::forward);
        server.setExecutor(threads);
        server.start();
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** What was recorded since the last call, in the order sent; the record starts afresh. */
    public List<Access> take() {
        List<Access> taken = List.copyOf(recorded);
        recorded.clear();
        return taken;
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            record(exchange.getRequestHeaders().getFirst("X-Amz-Target"), exchange, body);
            HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI()))
                    .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
            exchange.getRequestHeaders().forEach((name, values) -> {
                if (!HOP.contains(name.toLowerCase(Locale.ROOT))) {
                    values.forEach(value -> request.header(name, value));
                }
            });
            HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().map().forEach((name, values) -> {
                if (!name.startsWith(":") && !HOP.contains(name.toLowerCase(Locale.ROOT))) {
                    exchange.getResponseHeaders().put(name, values);
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

    private void record(String amzTarget, HttpExchange exchange, byte[] body) throws IOException {
        if (amzTarget == null) {
            // A REST service (Lambda, Scheduler, ...): recorded by method and path, which no policy here allows.
            recorded.add(new Access(
                    "rest:" + exchange.getRequestMethod() + " "
                            + exchange.getRequestURI().getPath(),
                    null,
                    null,
                    null,
                    Set.of(),
                    "NONE",
                    "rest"));
            return;
        }
        String operation = amzTarget.substring(amzTarget.indexOf('.') + 1);
        if (!amzTarget.startsWith("DynamoDB_")) {
            String service =
                    amzTarget.startsWith("AWSEvents") ? "events" : amzTarget.substring(0, amzTarget.indexOf('.'));
            recorded.add(new Access(service + ":" + operation, null, null, null, Set.of(), "NONE", operation));
            return;
        }
        JsonNode request = JSON.readTree(body);
        switch (operation) {
            case "GetItem", "UpdateItem", "DeleteItem" -> item("dynamodb:" + operation, request, "Key", operation);
            case "PutItem" -> item("dynamodb:PutItem", request, "Item", operation);
            case "BatchGetItem" ->
                // Each key of each table as an item of its own, with the names its table's part uses.
                request.path("RequestItems").properties().forEach(table -> {
                    for (JsonNode key : table.getValue().path("Keys")) {
                        Set<String> attributes = names(table.getValue());
                        key.properties().forEach(field -> attributes.add(field.getKey()));
                        recorded.add(new Access(
                                "dynamodb:BatchGetItem",
                                table.getKey(),
                                key.path("pk").path("S").asText(null),
                                key.path("sk").path("S").asText(null),
                                attributes,
                                "NONE",
                                operation));
                    }
                });
            case "TransactWriteItems" -> {
                for (JsonNode transactItem : request.path("TransactItems")) {
                    Map.Entry<String, JsonNode> only =
                            transactItem.properties().iterator().next();
                    String kind = only.getKey();
                    String action = kind.equals("ConditionCheck") ? "ConditionCheckItem" : kind + "Item";
                    item("dynamodb:" + action, only.getValue(), kind.equals("Put") ? "Item" : "Key", operation);
                }
            }
            default ->
                // Query, DescribeTable, CreateTable, ...: the table, and every name the request uses.
                recorded.add(new Access(
                        "dynamodb:" + operation,
                        request.path("TableName").asText(null),
                        queriedPartition(request),
                        null,
                        names(request),
                        request.path("ReturnValues").asText("NONE"),
                        operation));
        }
    }

    /**
     * A Query's partition key, as IAM's {@code dynamodb:LeadingKeys} sees it: the value its key condition
     * compares the table's {@code pk} with ({@code #x = :v}, {@code #x} naming {@code pk}); null for any
     * other request, or a Query of an index by another key.
     */
    private static String queriedPartition(JsonNode request) {
        java.util.regex.Matcher equality = java.util.regex.Pattern.compile("(#[A-Za-z0-9_]+) = (:[A-Za-z0-9_]+)")
                .matcher(request.path("KeyConditionExpression").asText(""));
        while (equality.find()) {
            if ("pk"
                    .equals(request.path("ExpressionAttributeNames")
                            .path(equality.group(1))
                            .asText(null))) {
                return request.path("ExpressionAttributeValues")
                        .path(equality.group(2))
                        .path("S")
                        .asText(null);
            }
        }
        return null;
    }

    private void item(String action, JsonNode request, String itemField, String operation) {
        JsonNode item = request.path(itemField);
        Set<String> attributes = names(request);
        item.properties().forEach(field -> attributes.add(field.getKey()));
        recorded.add(new Access(
                action,
                request.path("TableName").asText(null),
                item.path("pk").path("S").asText(null),
                item.path("sk").path("S").asText(null),
                attributes,
                request.path("ReturnValues").asText("NONE"),
                operation));
    }

    /**
     * The names of ExpressionAttributeNames. The ledger's expressions name every attribute through a
     * placeholder ({@code Placeholders}); an expression with a bare name is refused here, so that a name
     * outside the placeholders cannot go unchecked.
     */
    private static Set<String> names(JsonNode request) {
        Set<String> names = new TreeSet<>();
        request.path("ExpressionAttributeNames").forEach(name -> names.add(name.asText()));
        for (String field : List.of(
                "ConditionExpression",
                "UpdateExpression",
                "ProjectionExpression",
                "KeyConditionExpression",
                "FilterExpression")) {
            String expression = request.path(field).asText("");
            String bare = expression
                    .replaceAll("[#:][A-Za-z0-9_]+", " ")
                    .replaceAll(
                            "\\b(SET|REMOVE|ADD|DELETE|AND|OR|NOT|IN|BETWEEN|if_not_exists|list_append"
                                    + "|attribute_exists|attribute_not_exists|attribute_type|contains|begins_with|size)\\b",
                            " ")
                    .replaceAll("[^A-Za-z]", "");
            if (!bare.isEmpty()) {
                throw new IllegalStateException(field + " names an attribute without a placeholder: " + expression);
            }
        }
        return names;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
