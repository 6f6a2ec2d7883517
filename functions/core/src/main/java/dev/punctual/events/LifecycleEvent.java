package dev.punctual.events;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Punctual tells other systems about runs, on an EventBridge bus with source {@value #SOURCE}.
 * The detail of each kind is documented in docs/events.md; consumers match on {@link #detailType()}.
 *
 * <p>Every detail carries {@code needs_attention}: true for the three situations someone must act on
 * (a run failed after its last attempt, occurrences given up as missed, an occurrence that was due and
 * never delivered). The stage's alert rule matches exactly those, and their details share the keys its
 * notice reads: {@code stage}, {@code job}, {@code occurrence} (UTC), {@code occurrence_local} (the
 * job's zone), {@code reason} and {@code attempts}.
 *
 * <p>The event of a per-entity job's occurrence also carries {@code entity}, right after {@code job}
 * (its id, never its parameters); an event of any other job has no such key, rather than a null one,
 * so a rule matching {@code entity} never matches a job's own run.
 */
public sealed interface LifecycleEvent {

    String SOURCE = "punctual";

    /** The detail key the stage's alert rule matches on. */
    String NEEDS_ATTENTION = "needs_attention";

    String stage();

    String job();

    String detailType();

    /** Whether the stage's alert rule notifies people of this event. */
    boolean needsAttention();

    /** The event's detail, in a stable key order. */
    Map<String, Object> detail();

    /**
     * An occurrence's work committed (fenced completion succeeded); {@code entity} is the entity of a
     * per-entity job's occurrence, else null.
     */
    record RunSucceeded(
            String stage, String job, Instant occurrence, String trigger, long fence, long durationMs, String entity)
            implements LifecycleEvent {
        /** A job's own occurrence: no entity. */
        public RunSucceeded(String stage, String job, Instant occurrence, String trigger, long fence, long durationMs) {
            this(stage, job, occurrence, trigger, fence, durationMs, null);
        }

        @Override
        public String detailType() {
            return "Punctual Run Succeeded";
        }

        @Override
        public boolean needsAttention() {
            return false;
        }

        @Override
        public Map<String, Object> detail() {
            Map<String, Object> d = base(this, entity);
            d.put("occurrence", occurrence.toString());
            d.put("trigger", trigger);
            d.put("fence", fence);
            d.put("duration_ms", durationMs);
            d.put(NEEDS_ATTENTION, false);
            return d;
        }
    }

    /**
     * An occurrence failed; {@code reason} is a reason code, {@code error} a redacted summary. It needs
     * attention only when {@code lastAttempt}: no retry of this delivery will come (a scheduled run at
     * its job's {@code maxAttempts}, or any manual or replayed run). {@code entity} is the entity of a
     * per-entity job's occurrence, else null.
     */
    record RunFailed(
            String stage,
            String job,
            ZonedDateTime occurrence,
            String trigger,
            String reason,
            String error,
            int attempt,
            int maxAttempts,
            boolean lastAttempt,
            String entity)
            implements LifecycleEvent {
        /** A job's own occurrence: no entity. */
        public RunFailed(
                String stage,
                String job,
                ZonedDateTime occurrence,
                String trigger,
                String reason,
                String error,
                int attempt,
                int maxAttempts,
                boolean lastAttempt) {
            this(stage, job, occurrence, trigger, reason, error, attempt, maxAttempts, lastAttempt, null);
        }

        @Override
        public String detailType() {
            return "Punctual Run Failed";
        }

        @Override
        public boolean needsAttention() {
            return lastAttempt;
        }

        @Override
        public Map<String, Object> detail() {
            Map<String, Object> d = base(this, entity);
            putOccurrence(d, occurrence);
            d.put("trigger", trigger);
            d.put("reason", reason);
            d.put("attempts", attempt + " of " + maxAttempts);
            d.put("attempt", attempt);
            d.put("max_attempts", maxAttempts);
            d.put("last_attempt", lastAttempt);
            d.put("error", error);
            d.put(NEEDS_ATTENTION, needsAttention());
            return d;
        }
    }

    /**
     * Occurrences fell outside the catch-up bounds and were recorded as missed, as one range; the
     * notice's occurrence is the first of the range. {@code zone} is the job's, or for a per-entity job
     * the entity's; {@code entity} is that entity, else null.
     */
    record OccurrencesMissed(
            String stage, String job, Instant first, Instant last, long count, ZoneId zone, String entity)
            implements LifecycleEvent {
        public static final String REASON = "MISSED";

        /** A job's own occurrences: no entity. */
        public OccurrencesMissed(String stage, String job, Instant first, Instant last, long count, ZoneId zone) {
            this(stage, job, first, last, count, zone, null);
        }

        @Override
        public String detailType() {
            return "Punctual Occurrences Missed";
        }

        @Override
        public boolean needsAttention() {
            return true;
        }

        @Override
        public Map<String, Object> detail() {
            Map<String, Object> d = base(this, entity);
            putOccurrence(d, first.atZone(zone));
            d.put("reason", REASON);
            d.put("attempts", "none");
            d.put("first", first.toString());
            d.put("last", last.toString());
            d.put("count", count);
            d.put(NEEDS_ATTENTION, true);
            return d;
        }
    }

    /**
     * The missed-run watchdog found an occurrence that was due (after the job's schedule went live) and
     * has no run item at all: the scheduler never delivered it. Reported once per occurrence when the
     * watchdog's run commits, again by the next run when it does not (at least once). {@code entity}: the
     * entity whose delivery never came (decision 0031), or null for a job's own.
     */
    record OccurrenceOverdue(String stage, String job, String entity, ZonedDateTime occurrence, String reason)
            implements LifecycleEvent {

        public OccurrenceOverdue(String stage, String job, ZonedDateTime occurrence, String reason) {
            this(stage, job, null, occurrence, reason);
        }

        @Override
        public String detailType() {
            return "Punctual Occurrence Overdue";
        }

        @Override
        public boolean needsAttention() {
            return true;
        }

        @Override
        public Map<String, Object> detail() {
            Map<String, Object> d = base(this, entity);
            putOccurrence(d, occurrence);
            d.put("reason", reason);
            d.put("attempts", "none");
            d.put(NEEDS_ATTENTION, true);
            return d;
        }
    }

    /**
     * The watchdog found no success of a job within its freshness bound (decision 0042): reported once when
     * it turns stale (at least once, as an overdue occurrence). {@code occurrence} is its last success, or its
     * go-live when it never succeeded ({@code last_success} absent), so the stage's notice names both.
     */
    record JobStale(
            String stage,
            String job,
            ZonedDateTime since,
            boolean succeeded,
            java.time.Duration freshWithin,
            java.time.Duration age)
            implements LifecycleEvent {

        public static final String REASON = "STALE";

        @Override
        public String detailType() {
            return "Punctual Job Stale";
        }

        @Override
        public boolean needsAttention() {
            return true;
        }

        @Override
        public Map<String, Object> detail() {
            Map<String, Object> d = base(this, null);
            putOccurrence(d, since);
            d.put("reason", REASON);
            d.put("attempts", "none");
            if (succeeded) {
                d.put("last_success", since.toInstant().toString());
            }
            d.put("fresh_within", freshWithin.toString());
            d.put("age", age.toString());
            d.put(NEEDS_ATTENTION, true);
            return d;
        }
    }

    private static Map<String, Object> base(LifecycleEvent event, String entity) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("stage", event.stage());
        d.put("job", event.job());
        // Only when there is one: absent, not null, on a job's own run (see the class comment).
        if (entity != null) {
            d.put("entity", entity);
        }
        return d;
    }

    private static void putOccurrence(Map<String, Object> d, ZonedDateTime occurrence) {
        d.put("occurrence", occurrence.toInstant().toString());
        d.put(
                "occurrence_local",
                DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(occurrence) + " " + occurrence.getZone());
    }
}
