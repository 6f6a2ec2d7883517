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
 * query definitions, while its log groups keep serving FilterLogEvents. Protocol level only; no SDK
 * interface is mocked.
 */
final class MotoFront implements AutoCloseable {

    private static final Set<String> RESTRICTED = Set.of("host", "connection", "content-length", "expect", "upgrade");
    private static final CBORFactory CBOR = new CBORFactory();

    /** The CloudWatch Logs operations (AWS JSON 1.1, {@code X-Amz-Target}) the Logs Insights stand-in serves. */
    static final Set<String> INSIGHTS = Set.of(
            "Logs_20140328.DescribeQueryDefinitions", "Logs_20140328.StartQuery", "Logs_20140328.GetQueryResults");

    private final HttpServer server;
    private final URI moto;
    private final HttpClient http = HttpClient.newHttpClient();
    private volatile URI invoke;
    private volatile URI insights;

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

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getRawPath();
            if ("rpc-v2-cbor".equals(exchange.getRequestHeaders().getFirst("smithy-protocol"))
                    && path.endsWith("/operation/DescribeAlarms")) {
                describeAlarms(exchange, body);
            } else if (insights != null
                    && INSIGHTS.contains(
                            String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target")))) {
                pass(exchange, body, insights);
            } else if (invoke != null && path.startsWith("/2015-03-31/functions/") && path.endsWith("/invocations")) {
                pass(exchange, body, invoke);
            } else {
                pass(exchange, body, moto);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private void pass(HttpExchange exchange, byte[] body, URI to) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        to.resolve(exchange.getRequestURI().getRawPath()
                                + (exchange.getRequestURI().getRawQuery() == null
                                        ? ""
                                        : "?" + exchange.getRequestURI().getRawQuery())))
                .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> request.header(name, v));
            }
        });
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        response.headers().map().forEach((name, values) -> {
            if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT)) && !name.equalsIgnoreCase("transfer-encoding")) {
                exchange.getResponseHeaders().put(name, values);
            }
        });
        reply(exchange, response.statusCode(), response.body());
    }

    private void describeAlarms(HttpExchange exchange, byte[] body) throws IOException, InterruptedException {
        Map<String, Object> request = readCbor(body);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("Action", "DescribeAlarms");
        if (request.get("AlarmNamePrefix") instanceof String prefix) {
            query.put("AlarmNamePrefix", prefix);
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
        Map<String, String> all = new LinkedHashMap<>(parameters);
        all.put("Version", "2010-08-01");
        String form = all.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(moto.resolve("/"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .header(
                                "Authorization",
                                "AWS4-HMAC-SHA256 Credential=punctual-test/20260101/us-east-1/monitoring/aws4_request,"
                                        + " SignedHeaders=host, Signature=0")
                        .POST(HttpRequest.BodyPublishers.ofString(form))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(
                    "moto CloudWatch " + parameters + ": " + response.statusCode() + " " + response.body());
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
                if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
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
