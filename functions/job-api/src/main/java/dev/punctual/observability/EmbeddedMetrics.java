package dev.punctual.observability;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CloudWatch Embedded Metric Format: the {@code _aws} directive and the metric values, as fields to add
 * to a structured log line. CloudWatch turns the line into metrics and Logs Insights still sees every
 * field, so one line per outcome serves both (see docs/decisions/0003-structured-log-and-emf.md).
 */
public final class EmbeddedMetrics {

    public static final String NAMESPACE = "Punctual";

    private EmbeddedMetrics() {}

    /**
     * The fields to merge into a log line.
     *
     * @param dimensions dimension names and values; the values also become top-level fields, as EMF
     *     requires. The metrics are published once with all of them and once with only the first,
     *     so that a stage-wide alarm needs no metric math (e.g. [stage, job] and [stage]).
     */
    public static Map<String, Object> fields(
            String namespace, Instant timestamp, Map<String, String> dimensions, List<Metric> metrics) {
        Map<String, Object> fields = new LinkedHashMap<>(dimensions);
        List<Map<String, String>> definitions = new ArrayList<>();
        for (Metric metric : metrics) {
            Map<String, String> definition = new LinkedHashMap<>();
            definition.put("Name", metric.name());
            definition.put("Unit", metric.unit().cloudWatchName());
            definitions.add(definition);
            fields.put(metric.name(), asNumber(metric.value()));
        }
        Map<String, Object> directive = new LinkedHashMap<>();
        directive.put("Namespace", namespace);
        List<String> names = List.copyOf(dimensions.keySet());
        directive.put("Dimensions", names.size() > 1 ? List.of(names, List.of(names.get(0))) : List.of(names));
        directive.put("Metrics", definitions);
        Map<String, Object> aws = new LinkedHashMap<>();
        aws.put("Timestamp", timestamp.toEpochMilli());
        aws.put("CloudWatchMetrics", List.of(directive));
        fields.put("_aws", aws);
        return fields;
    }

    private static Number asNumber(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? (Number) (long) value : (Number) value;
    }
}
