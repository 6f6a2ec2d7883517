package dev.punctual.runtime;

import dev.punctual.json.Json;
import dev.punctual.observability.Redactor;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The job's result summary as the outcome line carries it: a JSON object, secrets masked, keys in
 * alphabetical order (a job's map has no order of its own) and at most {@link #MAX_CHARS} characters
 * rendered. A longer summary keeps its first keys that fit and gains {@value #CUT}: the number of keys
 * left out, so a reader knows the object is partial. The run item stores the same object rendered
 * (cut further to the ledger's own limit).
 */
final class ResultSummary {

    /** Rendered size cap: a log line is for filtering, the job's own logs are for detail. */
    static final int MAX_CHARS = 2048;

    /** The key that marks a cut summary; its value is how many keys were left out. */
    static final String CUT = "_truncated";

    private ResultSummary() {}

    static Map<String, Object> of(Redactor redactor, Map<String, Object> summary) {
        Map<String, Object> redacted = new TreeMap<>(redactor.fields(summary));
        if (Json.write(redacted).length() <= MAX_CHARS) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(redacted));
        }
        Map<String, Object> kept = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : redacted.entrySet()) {
            Map<String, Object> tried = new LinkedHashMap<>(kept);
            tried.put(entry.getKey(), entry.getValue());
            tried.put(CUT, redacted.size() - kept.size() - 1);
            if (Json.write(tried).length() > MAX_CHARS) {
                break;
            }
            kept.put(entry.getKey(), entry.getValue());
        }
        kept.put(CUT, redacted.size() - kept.size());
        return Collections.unmodifiableMap(kept);
    }
}
