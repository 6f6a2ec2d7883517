package dev.punctual.cli.reading;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.punctual.testing.LoopbackServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A protocol-level stand-in for the three CloudWatch Logs calls {@code punctual logs} makes, because
 * moto 5.2.5 has no {@code DescribeQueryDefinitions} and its {@code StartQuery} ignores {@code filter}.
 * It speaks the real wire protocol (AWS JSON 1.1, {@code X-Amz-Target: Logs_20140328.<Operation>}), so
 * the SDK's {@code CloudWatchLogsClient} talks to it through {@code endpointOverride}:
 *
 * <ul>
 *   <li>{@code DescribeQueryDefinitions}: the definitions saved with {@link #saveQuery}, by name prefix;
 *   <li>{@code StartQuery}: records the request ({@link #started()}) and evaluates the query at once;
 *   <li>{@code GetQueryResults}: {@code Complete} with the rows, after {@code Running} as many times as
 *       {@link #answerRunning} says.
 * </ul>
 *
 * <p>It evaluates the subset of Logs Insights the saved queries' outcome filters use, over the JSON
 * lines given to {@link #putLines} for a log group: {@code fields a, b} (projection; {@code @timestamp}
 * is the line's {@code timestamp}), {@code filter f = "v" and g = "w"} (equality terms joined by
 * {@code and}; any other filter is refused as {@code MalformedQueryException}), {@code sort} (ignored:
 * lines stay newest first) and {@code limit N}. The time range is not applied. Anything else in a query
 * line is ignored.
 */
public final class LogsInsightsStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TERM = Pattern.compile("\\s*(\\S+)\\s*=\\s*\"([^\"]*)\"\\s*");

    /** A StartQuery request as received. */
    public record Started(List<String> logGroupNames, long startTime, long endTime, String queryString) {}

    private record Definition(String name, String queryString, List<String> logGroupNames) {}

    private LoopbackServer server;
    private final Map<String, Definition> definitions = new ConcurrentHashMap<>();
    private final Map<String, List<String>> lines = new ConcurrentHashMap<>();
    private final Map<String, ArrayNode> results = new ConcurrentHashMap<>();
    private final List<Started> started = new CopyOnWriteArrayList<>();
    private final AtomicInteger running = new AtomicInteger();

    private LogsInsightsStandIn() {}

    /** Starts the server on a free loopback port; requests are answered on its dispatcher thread. */
    public static LogsInsightsStandIn start() {
        LogsInsightsStandIn standIn = new LogsInsightsStandIn();
        standIn.server = LoopbackServer.start("/", standIn::handle, null);
        return standIn;
    }

    public URI endpoint() {
        return server.endpoint();
    }

    /** Saves a query definition, as the CDK app's {@code AWS::Logs::QueryDefinition} does. */
    public void saveQuery(String name, String queryString, List<String> logGroupNames) {
        definitions.put(name, new Definition(name, queryString, logGroupNames));
    }

    /** Forgets a saved query, as deleting its {@code AWS::Logs::QueryDefinition} would. */
    public void deleteQuery(String name) {
        definitions.remove(name);
    }

    /**
     * Every query of docs/queries.md (the text the CDK app saves, SavedQueriesTest): each {@code ### name}
     * heading and the code block under it, in the page's order. Paths are from a module's directory.
     */
    public static Map<String, String> documentedQueries() {
        try {
            String doc = Files.readString(Path.of("..", "..", "docs", "queries.md"));
            Matcher m = Pattern.compile("### (\\S+)\\n(?:[^`\\n].*\\n|\\n)*?```\\n([\\s\\S]*?)\\n```")
                    .matcher(doc);
            Map<String, String> queries = new LinkedHashMap<>();
            while (m.find()) {
                queries.put(m.group(1), m.group(2));
            }
            return queries;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first line of a documented query (its {@code fields}), which a narrowed query starts with too. */
    public static String documentedFirstLine(String name) {
        return documentedQueries().get(name).lines().findFirst().orElseThrow();
    }

    /**
     * Log lines of a log group, oldest first, as the function wrote them; a line that is not a JSON object
     * has no fields, as in Logs Insights, so no field filter matches it.
     */
    public void putLines(String logGroup, List<String> jsonLines) {
        lines.computeIfAbsent(logGroup, g -> new CopyOnWriteArrayList<>()).addAll(jsonLines);
    }

    /** Takes lines out again, so that a test that added some leaves the stand-in as the others expect it. */
    public void removeLines(String logGroup, List<String> jsonLines) {
        List<String> group = lines.get(logGroup);
        if (group != null) {
            group.removeAll(jsonLines);
        }
    }

    /** The next {@code polls} answers of {@code GetQueryResults} say {@code Running}, without rows. */
    public void answerRunning(int polls) {
        running.set(polls);
    }

    public List<Started> started() {
        return List.copyOf(started);
    }

    @Override
    public void close() {
        server.close();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            String operation = target.substring(target.indexOf('.') + 1);
            switch (operation) {
                case "DescribeQueryDefinitions" -> respond(exchange, 200, describe(request));
                case "StartQuery" -> startQuery(exchange, request);
                case "GetQueryResults" -> getResults(exchange, request);
                default -> error(exchange, "InvalidOperationException", operation + " is not served by the stand-in");
            }
        }
    }

    private ObjectNode describe(JsonNode request) {
        String prefix = request.path("queryDefinitionNamePrefix").asText("");
        ObjectNode response = JSON.createObjectNode();
        ArrayNode list = response.putArray("queryDefinitions");
        definitions.values().stream().filter(d -> d.name().startsWith(prefix)).forEach(d -> {
            ObjectNode node = list.addObject();
            node.put(
                    "queryDefinitionId",
                    UUID.nameUUIDFromBytes(d.name().getBytes(StandardCharsets.UTF_8))
                            .toString());
            node.put("name", d.name());
            node.put("queryString", d.queryString());
            ArrayNode groups = node.putArray("logGroupNames");
            d.logGroupNames().forEach(groups::add);
        });
        return response;
    }

    private void startQuery(HttpExchange exchange, JsonNode request) throws IOException {
        List<String> groups = new ArrayList<>();
        request.path("logGroupNames").forEach(g -> groups.add(g.asText()));
        String query = request.path("queryString").asText();
        started.add(new Started(
                groups,
                request.path("startTime").asLong(),
                request.path("endTime").asLong(),
                query));
        ArrayNode rows;
        try {
            rows = evaluate(query, groups);
        } catch (IllegalArgumentException e) {
            error(exchange, "MalformedQueryException", e.getMessage());
            return;
        }
        String id = UUID.randomUUID().toString();
        results.put(id, rows);
        ObjectNode response = JSON.createObjectNode();
        response.put("queryId", id);
        respond(exchange, 200, response);
    }

    private void getResults(HttpExchange exchange, JsonNode request) throws IOException {
        ArrayNode rows = results.get(request.path("queryId").asText());
        if (rows == null) {
            error(
                    exchange,
                    "ResourceNotFoundException",
                    "no query " + request.path("queryId").asText());
            return;
        }
        ObjectNode response = JSON.createObjectNode();
        if (running.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            response.put("status", "Running");
            response.putArray("results");
            respond(exchange, 200, response);
            return;
        }
        response.put("status", "Complete");
        response.set("results", rows);
        response.putObject("statistics").put("recordsMatched", rows.size());
        respond(exchange, 200, response);
    }

    private ArrayNode evaluate(String query, List<String> groups) throws IOException {
        List<String> fields = new ArrayList<>();
        List<Map<String, String>> filters = new ArrayList<>();
        int limit = Integer.MAX_VALUE;
        for (String raw : query.split("\n")) {
            String line = raw.strip().replaceFirst("^\\|\\s*", "");
            if (line.startsWith("fields ")) {
                for (String f : line.substring("fields ".length()).split(",")) {
                    fields.add(f.strip());
                }
            } else if (line.startsWith("filter ")) {
                filters.add(terms(line.substring("filter ".length())));
            } else if (line.startsWith("limit ")) {
                limit = Integer.parseInt(line.substring("limit ".length()).strip());
            }
        }
        List<JsonNode> matching = new ArrayList<>();
        for (String group : groups) {
            for (String text : lines.getOrDefault(group, List.of())) {
                JsonNode line = object(text);
                boolean all = filters.stream()
                        .allMatch(f -> f.entrySet().stream()
                                .allMatch(t -> line.path(t.getKey()).asText().equals(t.getValue())));
                if (all) {
                    matching.add(line);
                }
            }
        }
        ArrayNode rows = JSON.createArrayNode();
        for (int i = matching.size() - 1; i >= 0 && rows.size() < limit; i--) {
            JsonNode line = matching.get(i);
            ArrayNode row = rows.addArray();
            for (String field : fields) {
                JsonNode value = field.equals("@timestamp") ? line.path("timestamp") : line.path(field);
                if (!value.isMissingNode() && !value.isNull()) {
                    row.addObject().put("field", field).put("value", value.asText());
                }
            }
            row.addObject().put("field", "@ptr").put("value", "stand-in-" + i);
        }
        return rows;
    }

    private static JsonNode object(String text) {
        try {
            JsonNode tree = JSON.readTree(text);
            return tree != null && tree.isObject() ? tree : JSON.createObjectNode();
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static Map<String, String> terms(String filter) {
        Map<String, String> terms = new LinkedHashMap<>();
        for (String term : filter.split(" and ")) {
            Matcher m = TERM.matcher(term);
            if (!m.matches()) {
                throw new IllegalArgumentException("the stand-in evaluates only field = \"value\" terms, not: " + term);
            }
            terms.put(m.group(1), m.group(2));
        }
        return terms;
    }

    private static void error(HttpExchange exchange, String type, String message) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.put("__type", type);
        body.put("message", message);
        respond(exchange, 400, body);
    }

    private static void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.1");
        exchange.getResponseHeaders().add("x-amzn-RequestId", UUID.randomUUID().toString());
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
