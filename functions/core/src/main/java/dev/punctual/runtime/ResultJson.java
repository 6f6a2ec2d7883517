package dev.punctual.runtime;

import dev.punctual.json.Json;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The handler's (and the CLI's) JSON result, one object, documented in events/README.md. */
public final class ResultJson {

    private ResultJson() {}

    public static String render(InvocationResult result) {
        return Json.write(tree(result));
    }

    public static Map<String, Object> tree(InvocationResult r) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("status", r.valid() ? "OK" : "INVALID");
        out.put("stage", r.stage());
        out.put("kind", r.kind());
        out.put("job", r.job());
        out.put("counts", counts(r));
        List<Map<String, Object>> occurrences = new ArrayList<>();
        r.occurrences().forEach(o -> occurrences.add(occurrence(o)));
        out.put("occurrences", occurrences);
        out.put(
                "missed",
                r.missed()
                        .map(m -> Map.of(
                                "first", m.first().toString(), "last", m.last().toString(), "count", m.count()))
                        .orElse(null));
        out.put("not_run", r.notRun());
        // The refusal that stopped a replay, so a caller reading only the JSON (the CLI, over Lambda
        // Invoke) knows the range is not done though nothing failed.
        out.put("stopped_by", r.stoppedBy().map(Reason::wire).orElse(null));
        out.put(
                "error",
                r.error()
                        .map(e -> {
                            Map<String, Object> error = new LinkedHashMap<>();
                            error.put("code", e.code());
                            error.put("field", e.field());
                            error.put("message", e.message());
                            return error;
                        })
                        .orElse(null));
        if (!r.conditions().isEmpty()) {
            // A ping's evaluation of the maintenance conditions, with the function's role (decision 0036, 5).
            out.put(
                    "conditions",
                    r.conditions().stream()
                            .map(c -> {
                                Map<String, Object> m = new LinkedHashMap<>();
                                m.put("condition", c.condition());
                                m.put("state", c.state().name());
                                m.put("why", c.why().orElse(null));
                                return m;
                            })
                            .toList());
        }
        return out;
    }

    private static Map<String, Object> counts(InvocationResult r) {
        Map<String, Object> counts = new LinkedHashMap<>();
        for (Verdict v : Verdict.values()) {
            counts.put(
                    v.name().toLowerCase(Locale.ROOT),
                    r.occurrences().stream().filter(o -> o.verdict() == v).count());
        }
        return counts;
    }

    private static Map<String, Object> occurrence(OccurrenceReport o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("job", o.job());
        m.put("entity", o.entity());
        m.put("occurrence", o.occurrence().toString());
        m.put("local", DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(o.local()));
        m.put("trigger", o.trigger().name());
        m.put("outcome", o.verdict().name());
        m.put("reason", o.reason().wire());
        m.put("attempt", o.attempt());
        m.put("fence", o.fence());
        m.put("duration_ms", o.durationMs());
        // Text that explains (an error, a skip's cause); a pass's summary is the object under result.
        m.put("detail", o.detail());
        m.put("result", o.verdict() == Verdict.PASS && !o.result().isEmpty() ? o.result() : null);
        // Only on a dry run whose job could tell; every other result keeps its fields as before.
        o.preview().ifPresent(p -> m.put("preview", p.fields()));
        return m;
    }
}
