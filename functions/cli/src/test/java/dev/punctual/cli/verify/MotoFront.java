package dev.punctual.cli.verify;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import software.amazon.awssdk.thirdparty.jackson.core.JsonGenerator;
import software.amazon.awssdk.thirdparty.jackson.core.JsonParser;
import software.amazon.awssdk.thirdparty.jackson.core.JsonToken;
import software.amazon.awssdk.thirdparty.jackson.dataformat.cbor.CBORFactory;

/**
 * A loopback HTTP front for moto that the SDK's clients talk to as if it were AWS. It passes every
 * request through to moto unchanged, except CloudWatch's: the SDK (2.57) speaks CloudWatch's Smithy
 * RPC v2 CBOR protocol, which moto 5.2.5 does not serve (404), so the front answers
 * {@code DescribeAlarms} by asking moto the same question in CloudWatch's query protocol and writing
 * moto's answer back as CBOR. Lambda Invoke ({@code POST .../functions/F/invocations}) goes to the
 * Lambda Invoke stand-in when one is set ({@link #invokeAt}): moto keeps the functions' configuration
 * but does not run Java, the stand-in runs the real handler. The Logs Insights calls ({@link
 * #INSIGHTS}) go to the Logs Insights stand-in when one is set ({@link #insightsAt}): moto has no saved
 * query definitions, while its log groups keep serving FilterLogEvents. Two answers of moto's are
 * completed where moto 5.2.5 lacks what AWS has: {@code ListStackResources} also lists the template's
 * {@code AWS::CloudWatch::Alarm} resources (moto's CloudFormation creates no alarm; the test creates each
 * with {@code PutMetricAlarm} under the template's {@code AlarmName}, the alarm's physical id as in AWS),
 * and {@code ListFunctionUrlConfigs}, which moto does not serve, is answered from moto's
 * {@code GetFunctionUrlConfig}. Every request is recorded ({@link #seen()}), so a test can tell what the
 * operator's clients asked for. Protocol level only; no SDK interface is mocked.
 */
final class MotoFront implements AutoCloseable {

    private static final Set<String> RESTRICTED = Set.of("host", "connection", "content-length", "expect", "upgrade");
    private static final CBORFactory CBOR = new CBORFactory();

    /** The CloudWatch Logs operations (AWS JSON 1.1, {@code X-Amz-Target}) the Logs Insights stand-in serves. */
    static final Set<String> INSIGHTS = Set.of(
            "Logs_20140328.DescribeQueryDefinitions", "Logs_20140328.StartQuery", "Logs_20140328.GetQueryResults");

    /** {@code ListFunctionUrlConfigs}' path, which moto 5.2.5 does not serve. */
    private static final java.util.regex.Pattern FUNCTION_URLS =
            java.util.regex.Pattern.compile("/2021-10-31/functions/([^/]+)/urls");

    private final HttpServer server;
    private final URI moto;
    private final HttpClient http = HttpClient.newHttpClient();
    private volatile URI invoke;
    private volatile URI insights;
    private final List<Seen> seen = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * One request the front passed on.
     *
     * @param operation {@code X-Amz-Target} (JSON protocols), {@code Action} (query protocol), else method and path
     * @param body the request's body as text
     */
    record Seen(String operation, String body) {}

    private MotoFront(HttpServer server, URI moto) {
        this.server = server;
        this.moto = moto;
    }

    static MotoFront start(URI moto) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            MotoFront front = new MotoFront(server, moto);
            server.createContext("/", front::handle);
            // Concurrent: an Invoke passed to the stand-in makes the handler call DynamoDB through this
            // front while the Invoke is still open. moto itself still serves one request at a time.
            server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
                Thread thread = new Thread(r, "moto-front");
                thread.setDaemon(true);
                return thread;
            }));
            server.start();
            return front;
        } catch (IOException e) {
            throw new IllegalStateException("could not start the moto front", e);
        }
    }

    /** Sends Lambda Invoke requests to this endpoint from now on. */
    void invokeAt(URI standIn) {
        this.invoke = standIn;
    }

    /** Sends the Logs Insights calls to this endpoint from now on. */
    void insightsAt(URI standIn) {
        this.insights = standIn;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Every request since the last {@link #forget()}, oldest first. */
    List<Seen> seen() {
        return List.copyOf(seen);
    }

    void forget() {
        seen.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getRawPath();
            Map<String, String> form = form(exchange, body);
            record(exchange, path, form, body);
            if ("rpc-v2-cbor".equals(exchange.getRequestHeaders().getFirst("smithy-protocol"))
                    && path.endsWith("/operation/DescribeAlarms")) {
                describeAlarms(exchange, body);
            } else if (insights != null
                    && INSIGHTS.contains(
                            String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target")))) {
                pass(exchange, body, insights);
            } else if (invoke != null && path.startsWith("/2015-03-31/functions/") && path.endsWith("/invocations")) {
                pass(exchange, body, invoke);
            } else if ("ListStackResources".equals(form.get("Action"))) {
                listStackResources(exchange, body, form.get("StackName"));
            } else if ("GET".equals(exchange.getRequestMethod())
                    && FUNCTION_URLS.matcher(path).matches()) {
                listFunctionUrlConfigs(exchange, path);
            } else {
                pass(exchange, body, moto);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private void record(HttpExchange exchange, String path, Map<String, String> form, byte[] body) {
        String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
        String operation = target != null
                ? target
                : form.containsKey("Action") ? form.get("Action") : exchange.getRequestMethod() + " " + path;
        seen.add(new Seen(operation, new String(body, StandardCharsets.UTF_8)));
    }

    /** A query-protocol request's parameters (form body), else empty. */
    private static Map<String, String> form(HttpExchange exchange, byte[] body) {
        String type = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
        Map<String, String> form = new LinkedHashMap<>();
        if (!type.startsWith("application/x-www-form-urlencoded")) {
            return form;
        }
        for (String pair : new String(body, StandardCharsets.UTF_8).split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                form.put(
                        java.net.URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    private void pass(HttpExchange exchange, byte[] body, URI to) throws IOException, InterruptedException {
        HttpResponse<byte[]> response =
                forward(exchange, body, to, exchange.getRequestURI().getRawPath());
        relay(exchange, response, response.body());
    }

    private HttpResponse<byte[]> forward(HttpExchange exchange, byte[] body, URI to, String path)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(to.resolve(path
                        + (exchange.getRequestURI().getRawQuery() == null
                                ? ""
                                : "?" + exchange.getRequestURI().getRawQuery())))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> request.header(name, v));
            }
        });
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void relay(HttpExchange exchange, HttpResponse<byte[]> response, byte[] body) throws IOException {
        response.headers().map().forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT)) && !name.equalsIgnoreCase("transfer-encoding")) {
                exchange.getResponseHeaders().put(name, values);
            }
        });
        reply(exchange, response.statusCode(), body);
    }

    /**
     * moto's answer, with the stack template's alarms added: moto's CloudFormation skips
     * {@code AWS::CloudWatch::Alarm} (it lists such a resource as a blank entry, dropped here), and in AWS
     * an alarm's physical id is its name.
     */
    private void listStackResources(HttpExchange exchange, byte[] body, String stack)
            throws IOException, InterruptedException {
        HttpResponse<byte[]> response =
                forward(exchange, body, moto, exchange.getRequestURI().getRawPath());
        if (response.statusCode() != 200) {
            relay(exchange, response, response.body());
            return;
        }
        org.w3c.dom.Document answer = parse(new String(response.body(), StandardCharsets.UTF_8));
        Element summaries =
                (Element) answer.getElementsByTagName("StackResourceSummaries").item(0);
        NodeList members = summaries.getElementsByTagName("member");
        for (int i = members.getLength() - 1; i >= 0; i--) {
            Element member = (Element) members.item(i);
            if (text(member, "LogicalResourceId").isBlank()) {
                summaries.removeChild(member);
            }
        }
        var template = new com.fasterxml.jackson.databind.ObjectMapper().readTree(template(stack));
        for (var resource : template.path("Resources").properties()) {
            var value = resource.getValue();
            if ("AWS::CloudWatch::Alarm".equals(value.path("Type").asText())) {
                Element member = answer.createElement("member");
                Map<String, String> fields = new LinkedHashMap<>();
                fields.put("LogicalResourceId", resource.getKey());
                fields.put(
                        "PhysicalResourceId",
                        value.path("Properties").path("AlarmName").asText());
                fields.put("ResourceType", "AWS::CloudWatch::Alarm");
                fields.put("ResourceStatus", "CREATE_COMPLETE");
                fields.put("LastUpdatedTimestamp", "2026-01-01T00:00:00Z");
                fields.forEach((name, text) -> {
                    Element field = answer.createElement(name);
                    field.setTextContent(text);
                    member.appendChild(field);
                });
                summaries.appendChild(member);
            }
        }
        relay(exchange, response, serialize(answer));
    }

    private static byte[] serialize(org.w3c.dom.Document document) throws IOException {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            javax.xml.transform.TransformerFactory.newInstance()
                    .newTransformer()
                    .transform(
                            new javax.xml.transform.dom.DOMSource(document),
                            new javax.xml.transform.stream.StreamResult(out));
            return out.toByteArray();
        } catch (javax.xml.transform.TransformerException e) {
            throw new IOException(e);
        }
    }

    /** A stack's template as moto keeps it (GetTemplate in the query protocol). */
    private String template(String stack) throws IOException, InterruptedException {
        String xml = query("cloudformation", "2010-05-15", Map.of("Action", "GetTemplate", "StackName", stack));
        NodeList body = parse(xml).getElementsByTagName("TemplateBody");
        return body.getLength() == 0 ? "{}" : body.item(0).getTextContent();
    }

    /**
     * The function's URL configurations as {@code ListFunctionUrlConfigs} answers: moto's one
     * {@code GetFunctionUrlConfig} (it keeps at most one, on the unqualified function), or none.
     */
    private void listFunctionUrlConfigs(HttpExchange exchange, String path) throws IOException, InterruptedException {
        String url = path.substring(0, path.length() - "s".length());
        HttpResponse<byte[]> response = forward(exchange, new byte[0], moto, url);
        String configs = response.statusCode() / 100 == 2 ? new String(response.body(), StandardCharsets.UTF_8) : "";
        byte[] answer = ("{\"FunctionUrlConfigs\":[" + configs + "]}").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        reply(exchange, 200, answer);
    }

    private void describeAlarms(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        Map<String, Object> request = readCbor(body);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("Action", "DescribeAlarms");
        if (request.get("AlarmNamePrefix") instanceof String prefix) {
            query.put("AlarmNamePrefix", prefix);
        }
        if (request.get("AlarmNames") instanceof List<?> names) {
            for (int i = 0; i < names.size(); i++) {
                query.put("AlarmNames.member." + (i + 1), String.valueOf(names.get(i)));
            }
        }
        List<Map<String, String>> alarms = new ArrayList<>();
        NodeList members = parse(cloudWatchQuery(query)).getElementsByTagName("MetricAlarms");
        if (members.getLength() > 0) {
            NodeList items = ((Element) members.item(0)).getElementsByTagName("member");
            for (int i = 0; i < items.getLength(); i++) {
                Element item = (Element) items.item(i);
                if (item.getParentNode() == members.item(0)) {
                    alarms.add(Map.of(
                            "AlarmName", text(item, "AlarmName"),
                            "StateValue", text(item, "StateValue")));
                }
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = CBOR.createGenerator(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("MetricAlarms");
            for (Map<String, String> alarm : alarms) {
                g.writeStartObject();
                for (Map.Entry<String, String> field : alarm.entrySet()) {
                    g.writeStringField(field.getKey(), field.getValue());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        exchange.getResponseHeaders().add("smithy-protocol", "rpc-v2-cbor");
        exchange.getResponseHeaders().add("Content-Type", "application/cbor");
        reply(exchange, 200, out.toByteArray());
    }

    /** A CloudWatch call in its query protocol, straight to moto; the answer's XML. */
    String cloudWatchQuery(Map<String, String> parameters) throws IOException, InterruptedException {
        return query("monitoring", "2010-08-01", parameters);
    }

    /** A call in the query protocol, straight to moto (which picks the service by the signature's scope). */
    private String query(String service, String version, Map<String, String> parameters)
            throws IOException, InterruptedException {
        Map<String, String> all = new LinkedHashMap<>(parameters);
        all.put("Version", version);
        String form = all.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(moto.resolve("/"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header(
                                "Authorization",
                                "AWS4-HMAC-SHA256 Credential=punctual-test/20260101/us-east-1/" + service
                                        + "/aws4_request, SignedHeaders=host, Signature=0")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(
                    "moto " + service + " " + parameters + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    private static Map<String, Object> readCbor(byte[] body) throws IOException {
        Map<String, Object> out = new LinkedHashMap<>();
        if (body.length == 0) {
            return out;
        }
        try (JsonParser p = CBOR.createParser(new ByteArrayInputStream(body))) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return out;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (value == JsonToken.START_ARRAY) {
                    List<String> items = new ArrayList<>();
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        if (p.currentToken() == JsonToken.START_OBJECT || p.currentToken() == JsonToken.START_ARRAY) {
                            p.skipChildren();
                        } else {
                            items.add(p.getText());
                        }
                    }
                    out.put(name, items);
                } else if (value == JsonToken.START_OBJECT) {
                    p.skipChildren();
                } else {
                    out.put(name, p.getText());
                }
            }
        }
        return out;
    }

    private static org.w3c.dom.Document parse(String xml) throws IOException {
        try {
            return DocumentBuilderFactory.newInstance()
                    .newDocumentBuilder()
                    .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        } catch (javax.xml.parsers.ParserConfigurationException | org.xml.sax.SAXException e) {
            throw new IOException("moto's CloudWatch answer is not XML: " + xml, e);
        }
    }

    private static String text(Element parent, String tag) {
        NodeList nodes = parent.getElementsByTagName(tag);
        return nodes.getLength() == 0 ? "" : nodes.item(0).getTextContent();
    }

    private static void reply(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
