package dev.punctual.events;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Punctual tells other systems about runs, on an EventBridge bus with source {@value #SOURCE}.
 * The detail of each kind is documented in docs/events.md; consumers match on {@link #detailType()}.
 */
public sealed interface LifecycleEvent {

    String SOURCE = "punctual";

    String stage();

    String job();

    String detailType();

    /** The event's detail, in a stable key order. */
    Map<String, Object> detail();

    /** An occurrence's work committed (fenced completion succeeded). */
    record RunSucceeded(String stage, String job, Instant occurrence, String trigger, long fence, long durationMs)
            implements LifecycleEvent {
        @Override
        public String detailType() {
            return "Punctual Run Succeeded";
        }

        @Override
        public Map<String, Object> detail() {
            Map<String, Object> d = base(this);
            d.put("occurrence", occurrence.toString());
            d.put("trigger", trigger);
            d.put("fence", fence);
            d.put("duration_ms", durationMs);
            return d;
        }
    }

    /** An occurrence failed; {@code reason} is a reason code, {@code error} a redacted summary. */
    record RunFailed(String stage, String job, Instant occurrence, String trigger, String reason, String error)
            implements LifecycleEvent {
        @Override
        public String detailType() {
            return "Punctual Run Failed";
        }

        @Override
        public Map<String, Object> detail() {
            Map<String, Object> d = base(this);
            d.put("occurrence", occurrence.toString());
            d.put("trigger", trigger);
            d.put("reason", reason);
            d.put("error", error);
            return d;
        }
    }

    /** Occurrences fell outside the catch-up bounds and were recorded as missed, as one range. */
    record OccurrencesMissed(String stage, String job, Instant first, Instant last, long count)
            implements LifecycleEvent {
        @Override
        public String detailType() {
            return "Punctual Occurrences Missed";
        }

        @Override
        public Map<String, Object> detail() {
            Map<String, Object> d = base(this);
            d.put("first", first.toString());
            d.put("last", last.toString());
            d.put("count", count);
            return d;
        }
    }

    private static Map<String, Object> base(LifecycleEvent event) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("stage", event.stage());
        d.put("job", event.job());
        return d;
    }
}
