package dev.punctual.observability;

import java.util.Objects;

/** One CloudWatch metric value; its name becomes a top-level field of the EMF log line. */
public record Metric(String name, double value, Unit unit) {

    public Metric {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(unit, "unit");
        if (!name.matches("[A-Z][A-Za-z0-9]{0,254}")) {
            // PascalCase keeps metric fields apart from the snake_case log fields on the same line.
            throw new IllegalArgumentException("metric name must be PascalCase letters and digits: " + name);
        }
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("metric " + name + " must be finite, was " + value);
        }
    }

    public static Metric count(String name, long value) {
        return new Metric(name, value, Unit.COUNT);
    }

    public static Metric millis(String name, long value) {
        return new Metric(name, value, Unit.MILLISECONDS);
    }

    /** The units Punctual emits, spelled as CloudWatch expects them. */
    public enum Unit {
        COUNT("Count"),
        MILLISECONDS("Milliseconds");

        private final String cloudWatchName;

        Unit(String cloudWatchName) {
            this.cloudWatchName = cloudWatchName;
        }

        public String cloudWatchName() {
            return cloudWatchName;
        }
    }
}
