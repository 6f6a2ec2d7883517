package dev.punctual.outcome;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The custom metrics CloudWatch extracts from one EMF line, as {@code Name{dimension=value, ...}}: one
 * per metric and dimension set of each directive, with the values read from the line's fields, as
 * CloudWatch reads them. Each distinct string is one billed custom metric.
 */
final class EmfMetrics {

    private EmfMetrics() {}

    static Set<String> of(JsonNode line) {
        Set<String> metrics = new TreeSet<>();
        for (JsonNode directive : line.at("/_aws/CloudWatchMetrics")) {
            for (JsonNode set : directive.get("Dimensions")) {
                Map<String, String> dimensions = new TreeMap<>();
                set.forEach(name ->
                        dimensions.put(name.asText(), line.get(name.asText()).asText()));
                directive.get("Metrics").forEach(m -> metrics.add(m.get("Name").asText() + dimensions));
            }
        }
        return metrics;
    }
}
