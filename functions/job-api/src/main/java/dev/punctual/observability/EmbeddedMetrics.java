package dev.punctual.observability;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * CloudWatch Embedded Metric Format: the {@code _aws} directive and the metric values, as fields to add
 * to a structured log line. CloudWatch turns the line into metrics and Logs Insights still sees every
 * field, so one line per outcome serves both (see docs/decisions/0003-structured-log-and-emf.md).
 *
 * <p>Every distinct combination of metric name and dimension values is a custom metric billed per
 * month, so callers choose their dimension sets so that their count does not grow with the number of
 * jobs (docs/decisions/0009-stage-wide-metrics.md).
 */
public final class EmbeddedMetrics {

    public static final String NAMESPACE = "Punctual";

    private EmbeddedMetrics() {}

    /**
     * Metrics published under each of some dimension sets: one entry of the directive's
     * {@code CloudWatchMetrics} array.
     *
     * @param dimensionSets each a list of dimension names, every name a key of the line's dimension values
     */
    public record Directive(List<List<String>> dimensionSets, List<Metric> metrics) {

        public Directive {
            dimensionSets = dimensionSets.stream().map(List::copyOf).toList();
            metrics = List.copyOf(metrics);
            if (dimensionSets.isEmpty() || metrics.isEmpty()) {
                throw new IllegalArgumentException("a directive needs at least one dimension set and one metric");
            }
        }

        /** The metrics under one dimension set. */
        public static Directive of(List<String> dimensions, List<Metric> metrics) {
            return new Directive(List.of(dimensions), metrics);
        }
    }

    /**
     * The fields to merge into a log line.
     *
     * @param dimensions dimension names and values; the values also become top-level fields, as EMF
     *     requires
     */
    public static Map<String, Object> fields(
            String namespace, Instant timestamp, Map<String, String> dimensions, List<Directive> directives) {
        Map<String, Object> fields = new LinkedHashMap<>(dimensions);
        List<Map<String, Object>> entries = new ArrayList<>();
        for (Directive directive : directives) {
            for (List<String> set : directive.dimensionSets()) {
                for (String name : set) {
                    Objects.requireNonNull(dimensions.get(name), () -> "dimension " + name + " has no value");
                }
            }
            List<Map<String, String>> definitions = new ArrayList<>();
            for (Metric metric : directive.metrics()) {
                Map<String, String> definition = new LinkedHashMap<>();
                definition.put("Name", metric.name());
                definition.put("Unit", metric.unit().cloudWatchName());
                definitions.add(definition);
                fields.put(metric.name(), asNumber(metric.value()));
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("Namespace", namespace);
            entry.put("Dimensions", directive.dimensionSets());
            entry.put("Metrics", definitions);
            entries.add(entry);
        }
        Map<String, Object> aws = new LinkedHashMap<>();
        aws.put("Timestamp", timestamp.toEpochMilli());
        aws.put("CloudWatchMetrics", entries);
        fields.put("_aws", aws);
        return fields;
    }

    private static Number asNumber(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? (Number) (long) value : (Number) value;
    }
}
