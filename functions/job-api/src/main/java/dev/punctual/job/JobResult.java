package dev.punctual.job;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A job's small result summary (counts, ids), stored on its run item and shown in its outcome line.
 * Keep it short and free of personal data; it is redacted and cut anyway.
 */
public record JobResult(Map<String, Object> summary) {

    public JobResult {
        summary = Map.copyOf(summary);
    }

    public static JobResult empty() {
        return new JobResult(Map.of());
    }

    /** {@code JobResult.of("expired", 3, "refunded", 2)}. */
    public static JobResult of(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("JobResult.of takes key, value pairs");
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            summary.put(String.valueOf(keysAndValues[i]), keysAndValues[i + 1]);
        }
        return new JobResult(summary);
    }
}
