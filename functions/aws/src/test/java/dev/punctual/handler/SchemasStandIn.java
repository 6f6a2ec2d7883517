package dev.punctual.handler;

import com.sun.net.httpserver.HttpExchange;
import dev.punctual.json.Json;
import dev.punctual.testing.LoopbackServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A local stand-in for the EventBridge Schemas REST API (2019-12-02) and for CloudFormation's pre-signed
 * response URL: an HTTP server on loopback that the real {@link SchemasApi} (the SDK's signer and
 * URLConnection client) talks to, with nothing mocked at the Java level.
 *
 * <p>What it honours: CreateRegistry ({@code POST /v1/registries/name/{r}}: 201, or 409
 * {@code ConflictException} when it exists), DescribeSchema ({@code GET .../schemas/name/{s}}: 200 with
 * {@code Content}, {@code Type}, {@code Description}, {@code SchemaVersion} of the latest version, 404
 * {@code NotFoundException}), CreateSchema ({@code POST}: 201 version 1, 409 {@code ConflictException}
 * "Schema with name ... already exists", as the service answers), UpdateSchema ({@code PUT}: 200 with the
 * next version, 404 for a missing schema). Errors carry {@code x-amzn-ErrorType} and a {@code Code} /
 * {@code Message} body. Every Schemas request must be SigV4-signed for service {@code schemas}
 * ({@code Authorization: AWS4-HMAC-SHA256 Credential=.../schemas/aws4_request}) or gets 403.
 *
 * <p>By default an UpdateSchema whose content, type and description equal the latest version's is
 * refused with 400 {@code BadRequestException}: the API reference does not say what the service does
 * with an unchanged update, and a deploy must survive the strictest answer. {@code PUT /cfn/...} records
 * a CloudFormation response.
 */
public final class SchemasStandIn implements AutoCloseable {

    /** A request as the stand-in saw it: {@code CreateSchema _f-schema}, say. */
    public record Call(String operation, String target) {}

    private record Version(String content, String type, String description) {}

    private static final Pattern REGISTRY = Pattern.compile("^/v1/registries/name/([^/]+)$");
    private static final Pattern SCHEMA = Pattern.compile("^/v1/registries/name/([^/]+)/schemas/name/([^/]+)$");

    private final Set<String> registries = ConcurrentHashMap.newKeySet();
    private final Map<String, List<Version>> schemas = new ConcurrentHashMap<>();
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Map<String, String> responses = new ConcurrentHashMap<>();
    private final Map<String, Integer> refusals = new ConcurrentHashMap<>();
    private volatile boolean refusesUnchangedUpdates = true;
    private LoopbackServer server;

    private SchemasStandIn() {}

    public static SchemasStandIn start() {
        SchemasStandIn standIn = new SchemasStandIn();
        standIn.server = LoopbackServer.start("/", standIn::handle, "schemas-stand-in");
        return standIn;
    }

    /** Where {@link SchemasApi} should point. */
    public URI endpoint() {
        return server.endpoint();
    }

    /** A URL CloudFormation would have pre-signed for the answer to one event. */
    public String responseUrl(String id) {
        return endpoint().resolve("/cfn/" + id + "?X-Amz-Signature=stand-in").toString();
    }

    /** The answer CloudFormation received at {@link #responseUrl}, or null. */
    public String response(String id) {
        return responses.get(id);
    }

    /** A registry that someone (the console, another stage) already made. */
    public void existingRegistry(String name) {
        registries.add(name);
    }

    /** A schema someone already saved, e.g. an operator's shareable event in the console. */
    public void existingSchema(String registry, String name, String content) {
        registries.add(registry);
        schemas.computeIfAbsent(key(registry, name), k -> new CopyOnWriteArrayList<>())
                .add(new Version(content, "OpenApi3", ""));
    }

    /** Whether an unchanged UpdateSchema is refused (the default) or accepted as a new version. */
    public void refusesUnchangedUpdates(boolean refuses) {
        this.refusesUnchangedUpdates = refuses;
    }

    /** Every call of this operation is refused with this status (403 AccessDenied-like, say). */
    public void refuse(String operation, int status) {
        refusals.put(operation, status);
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    /** The latest content of a schema, or null. */
    public String content(String registry, String name) {
        List<Version> versions = schemas.get(key(registry, name));
        return versions == null ? null : versions.getLast().content();
    }

    /** How many versions a schema has. */
    public int versions(String registry, String name) {
        List<Version> versions = schemas.get(key(registry, name));
        return versions == null ? 0 : versions.size();
    }

    public boolean hasRegistry(String name) {
        return registries.contains(name);
    }

    @Override
    public void close() {
        server.close();
    }

    private static String key(String registry, String name) {
        return registry + "/" + name;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (path.startsWith("/cfn/")) {
                responses.put(path.substring("/cfn/".length()), body);
                send(exchange, 200, "", null);
                return;
            }
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            if (authorization == null
                    || !authorization.startsWith("AWS4-HMAC-SHA256 Credential=")
                    || !authorization.contains("/schemas/aws4_request")) {
                error(exchange, 403, "UnauthorizedException", "not signed for schemas: " + authorization);
                return;
            }
            String method = exchange.getRequestMethod();
            Matcher registry = REGISTRY.matcher(path);
            Matcher schema = SCHEMA.matcher(path);
            if (registry.matches() && "POST".equals(method)) {
                createRegistry(exchange, decode(registry.group(1)));
            } else if (schema.matches()) {
                String r = decode(schema.group(1));
                String s = decode(schema.group(2));
                switch (method) {
                    case "GET" -> describe(exchange, r, s);
                    case "POST" -> create(exchange, r, s, body);
                    case "PUT" -> update(exchange, r, s, body);
                    default -> error(exchange, 400, "BadRequestException", "no such operation: " + method);
                }
            } else {
                error(exchange, 404, "NotFoundException", "no such resource: " + path);
            }
        }
    }

    private boolean refused(HttpExchange exchange, String operation) throws IOException {
        Integer status = refusals.get(operation);
        if (status == null) {
            return false;
        }
        error(exchange, status, status == 403 ? "ForbiddenException" : "InternalServerErrorException", "refused");
        return true;
    }

    private void createRegistry(HttpExchange exchange, String name) throws IOException {
        calls.add(new Call("CreateRegistry", name));
        if (refused(exchange, "CreateRegistry")) {
            return;
        }
        if (!registries.add(name)) {
            error(exchange, 409, "ConflictException", "Registry with name " + name + " already exists.");
            return;
        }
        send(exchange, 201, Map.of("RegistryName", name), null);
    }

    private void describe(HttpExchange exchange, String registry, String name) throws IOException {
        calls.add(new Call("DescribeSchema", name));
        if (refused(exchange, "DescribeSchema")) {
            return;
        }
        List<Version> versions = schemas.get(key(registry, name));
        if (versions == null) {
            error(exchange, 404, "NotFoundException", "Schema with name " + name + " does not exist.");
            return;
        }
        Version latest = versions.getLast();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Content", latest.content());
        out.put("Description", latest.description());
        out.put("SchemaName", name);
        out.put("SchemaVersion", Integer.toString(versions.size()));
        out.put("Type", latest.type());
        send(exchange, 200, out, null);
    }

    private void create(HttpExchange exchange, String registry, String name, String body) throws IOException {
        calls.add(new Call("CreateSchema", name));
        if (refused(exchange, "CreateSchema")) {
            return;
        }
        if (!registries.contains(registry)) {
            error(exchange, 404, "NotFoundException", "Registry with name " + registry + " does not exist.");
            return;
        }
        Version version = version(body);
        List<Version> created = new CopyOnWriteArrayList<>(List.of(version));
        if (schemas.putIfAbsent(key(registry, name), created) != null) {
            error(exchange, 409, "ConflictException", "Schema with name " + name + " already exists.");
            return;
        }
        send(exchange, 201, Map.of("SchemaName", name, "SchemaVersion", "1"), null);
    }

    private void update(HttpExchange exchange, String registry, String name, String body) throws IOException {
        calls.add(new Call("UpdateSchema", name));
        if (refused(exchange, "UpdateSchema")) {
            return;
        }
        List<Version> versions = schemas.get(key(registry, name));
        if (versions == null) {
            error(exchange, 404, "NotFoundException", "Schema with name " + name + " does not exist.");
            return;
        }
        Version version = version(body);
        if (refusesUnchangedUpdates && version.equals(versions.getLast())) {
            error(exchange, 400, "BadRequestException", "Invalid request. The schema has not changed.");
            return;
        }
        versions.add(version);
        send(exchange, 200, Map.of("SchemaName", name, "SchemaVersion", Integer.toString(versions.size())), null);
    }

    @SuppressWarnings("unchecked")
    private static Version version(String body) {
        try {
            Map<String, Object> fields = (Map<String, Object>) Json.read(body);
            return new Version(
                    (String) fields.get("Content"),
                    (String) fields.get("Type"),
                    Objects.requireNonNullElse((String) fields.get("Description"), ""));
        } catch (Json.NotJsonException e) {
            throw new IllegalArgumentException(body, e);
        }
    }

    private static String decode(String segment) {
        return URLDecoder.decode(segment, StandardCharsets.UTF_8);
    }

    private static void error(HttpExchange exchange, int status, String code, String message) throws IOException {
        send(exchange, status, Map.of("Code", code, "Message", message), code + ":http://internal.amazon.com/coral/");
    }

    private static void send(HttpExchange exchange, int status, Object body, String errorType) throws IOException {
        byte[] bytes = (body instanceof String s ? s : Json.write(body)).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        if (errorType != null) {
            exchange.getResponseHeaders().add("x-amzn-ErrorType", errorType);
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Every call as {@code Operation target}, for a readable assertion message. */
    @Override
    public String toString() {
        List<String> out = new ArrayList<>();
        calls.forEach(c -> out.add(c.operation() + " " + c.target()));
        return out.toString();
    }
}
