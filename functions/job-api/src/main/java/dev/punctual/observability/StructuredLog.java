package dev.punctual.observability;

import dev.punctual.json.Json;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Writes one JSON object per line, with the keys Powertools for AWS Lambda uses ({@code timestamp},
 * {@code level}, {@code service}, {@code message}, {@code function_request_id}, {@code cold_start}) so
 * existing Logs Insights habits work, followed by Punctual's own fields. Every field passes through the
 * {@link Redactor} first: nothing secret-looking reaches a line, whoever wrote the value.
 */
public final class StructuredLog {

    /** Log levels, as Powertools spells them. */
    public enum Level {
        DEBUG,
        INFO,
        WARN,
        ERROR
    }

    private final Consumer<String> sink;
    private final Clock clock;
    private final String service;
    private final Redactor redactor;
    private final String requestId;
    private final Boolean coldStart;

    public StructuredLog(Consumer<String> sink, Clock clock, String service, Redactor redactor) {
        this(sink, clock, service, redactor, null, null);
    }

    private StructuredLog(
            Consumer<String> sink,
            Clock clock,
            String service,
            Redactor redactor,
            String requestId,
            Boolean coldStart) {
        this.sink = Objects.requireNonNull(sink, "sink");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.service = Objects.requireNonNull(service, "service");
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        this.requestId = requestId;
        this.coldStart = coldStart;
    }

    /** The same log, stamping every line with one Lambda invocation's request id and cold-start flag. */
    public StructuredLog forInvocation(String functionRequestId, boolean isColdStart) {
        return new StructuredLog(sink, clock, service, redactor, functionRequestId, isColdStart);
    }

    public Redactor redactor() {
        return redactor;
    }

    public void info(String message, Map<String, ?> fields) {
        write(Level.INFO, message, fields);
    }

    public void warn(String message, Map<String, ?> fields) {
        write(Level.WARN, message, fields);
    }

    public void error(String message, Map<String, ?> fields) {
        write(Level.ERROR, message, fields);
    }

    public void write(Level level, String message, Map<String, ?> fields) {
        sink.accept(render(level, message, redactor.fields(fields), clock.instant()));
    }

    /**
     * A line that is also a set of CloudWatch metrics (EMF), published under one dimension set made of
     * every given dimension. The metric values and dimensions are numbers and identifiers Punctual
     * computes, so they are not redacted; the other fields are.
     */
    public void metrics(
            Level level, String message, Map<String, ?> fields, Map<String, String> dimensions, List<Metric> metrics) {
        metricSets(
                level,
                message,
                fields,
                dimensions,
                List.of(EmbeddedMetrics.Directive.of(List.copyOf(dimensions.keySet()), metrics)));
    }

    /** A line that is also a set of CloudWatch metrics, each directive choosing its dimension sets. */
    public void metricSets(
            Level level,
            String message,
            Map<String, ?> fields,
            Map<String, String> dimensions,
            List<EmbeddedMetrics.Directive> directives) {
        Instant now = clock.instant();
        Map<String, Object> all = redactor.fields(fields);
        all.putAll(EmbeddedMetrics.fields(EmbeddedMetrics.NAMESPACE, now, dimensions, directives));
        sink.accept(render(level, message, all, now));
    }

    private String render(Level level, String message, Map<String, Object> fields, Instant now) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("timestamp", now.toString());
        line.put("level", level.name());
        line.put("service", service);
        line.put("message", redactor.text(message));
        if (requestId != null) {
            line.put("function_request_id", requestId);
            line.put("cold_start", coldStart);
        }
        fields.forEach(line::putIfAbsent);
        return Json.write(line);
    }
}
