package dev.punctual.runtime;

import dev.punctual.PunctualException;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.Trigger;
import dev.punctual.runtime.longrun.BadLongClaim;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The claim a long occurrence's execution runs under (decision 0039), as its input carries it to every
 * step: whose occurrence (the job, an entity with its schedule), and the claim itself with its extended
 * lease. A pure function of the claim, so every start of one claim sends the same input and Step
 * Functions answers a resend with the same execution. The claim's {@code previous} record is not carried:
 * a long claim is never given back after its start.
 */
public record LongClaim(RunSubject subject, Claim claim) {

    static final String JOB = "job";
    static final String ENTITY = "entity";
    static final String SCHEDULE = "schedule";
    static final String ZONE = "zone";
    static final String PARAMETERS = "parameters";
    static final String OCCURRENCE = "occurrence";
    static final String LEASE = "lease";
    static final String GROUP = "group";
    static final String OWNER = "owner";
    static final String FENCE = "fence";
    static final String ACQUIRED_AT = "acquired_at";
    static final String UNTIL = "until";
    static final String ATTEMPT = "attempt";
    static final String TRIGGER = "trigger";
    static final String SCHEDULER_ATTEMPT = "scheduler_attempt";
    static final String STARTED_AT = "started_at";
    static final String ON_SLOT = "on_slot";
    static final String CURSOR_BEFORE = "cursor_before";

    /** The claim as the execution's input carries it. */
    public Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(JOB, subject.job().id());
        subject.entity().ifPresent(entity -> {
            out.put(ENTITY, entity.id());
            out.put(SCHEDULE, subject.schedule().expression().source());
            out.put(ZONE, subject.schedule().zone().getId());
            out.put(PARAMETERS, new LinkedHashMap<>(entity.parameters()));
        });
        out.put(OCCURRENCE, claim.key().scheduledTime().toString());
        Lease lease = claim.lease();
        Map<String, Object> l = new LinkedHashMap<>();
        l.put(GROUP, lease.group());
        l.put(OWNER, lease.ownerToken());
        l.put(FENCE, lease.fence());
        l.put(ACQUIRED_AT, lease.acquiredAt().toString());
        l.put(UNTIL, lease.expiresAt().toString());
        out.put(LEASE, l);
        out.put(ATTEMPT, claim.attempt());
        out.put(TRIGGER, claim.trigger().name());
        out.put(SCHEDULER_ATTEMPT, claim.schedulerAttempt());
        out.put(STARTED_AT, claim.startedAt().toString());
        out.put(ON_SLOT, claim.onSlot());
        out.put(CURSOR_BEFORE, claim.cursorBefore().map(Instant::toString).orElse(null));
        return out;
    }

    /**
     * Reads a claim an execution's input carried, against the catalog: a job the catalog no longer has, an
     * entity whose schedule no longer reads, or a field missing or of the wrong type is refused naming it.
     */
    public static LongClaim from(Object json, JobCatalog catalog) {
        Map<String, Object> in = object(json, "claim");
        String jobId = text(in, JOB);
        JobDefinition job = catalog.find(jobId)
                .orElseThrow(() -> new BadLongClaim("claim.job '" + jobId + "' is not a job of this catalog"));
        if (!job.isLong()) {
            throw new BadLongClaim("claim.job '" + jobId + "' does not run long (runsLong)");
        }
        RunSubject subject;
        if (job.isPerEntity()) {
            Object parameters = in.get(PARAMETERS);
            @SuppressWarnings("unchecked")
            Map<String, ?> given = parameters instanceof Map<?, ?> m ? (Map<String, ?>) m : Map.of();
            try {
                subject = RunSubject.of(
                        job, EntitySchedule.of(job, text(in, ENTITY), text(in, SCHEDULE), text(in, ZONE), given));
            } catch (PunctualException e) {
                throw new BadLongClaim("claim's entity cannot be read: " + e.getMessage());
            }
        } else {
            subject = RunSubject.of(job);
        }
        Map<String, Object> l = object(in.get(LEASE), "claim.lease");
        Lease lease =
                new Lease(text(l, GROUP), text(l, OWNER), number(l, FENCE), instant(l, ACQUIRED_AT), instant(l, UNTIL));
        Instant occurrence = instant(in, OCCURRENCE);
        Object cursor = in.get(CURSOR_BEFORE);
        Claim claim = new Claim(
                new RunKey(subject.ledgerId(), occurrence),
                lease,
                (int) number(in, ATTEMPT),
                trigger(in),
                (int) number(in, SCHEDULER_ATTEMPT),
                instant(in, STARTED_AT),
                bool(in, ON_SLOT),
                cursor == null ? Optional.empty() : Optional.of(instant(in, CURSOR_BEFORE)),
                Optional.empty());
        return new LongClaim(subject, claim);
    }

    /** The entity of the occurrence, for the job's context. */
    public Optional<JobContext.Entity> entity() {
        return subject.entity();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value, String field) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new BadLongClaim(field + " must be a JSON object");
    }

    private static String text(Map<String, Object> in, String field) {
        if (in.get(field) instanceof String s && !s.isEmpty()) {
            return s;
        }
        throw new BadLongClaim("claim field '" + field + "' must be a non-empty string");
    }

    private static long number(Map<String, Object> in, String field) {
        if (in.get(field) instanceof Long n) {
            return n;
        }
        if (in.get(field) instanceof Integer n) {
            return n;
        }
        throw new BadLongClaim("claim field '" + field + "' must be a whole number");
    }

    private static boolean bool(Map<String, Object> in, String field) {
        if (in.get(field) instanceof Boolean b) {
            return b;
        }
        throw new BadLongClaim("claim field '" + field + "' must be true or false");
    }

    private static Instant instant(Map<String, Object> in, String field) {
        String text = text(in, field);
        try {
            return Instant.parse(text);
        } catch (java.time.format.DateTimeParseException e) {
            throw new BadLongClaim("claim field '" + field + "' must be an ISO-8601 instant, was '" + text + "'");
        }
    }

    private static Trigger trigger(Map<String, Object> in) {
        String text = text(in, TRIGGER);
        try {
            return Trigger.valueOf(text);
        } catch (IllegalArgumentException e) {
            throw new BadLongClaim(
                    "claim field 'trigger' must be SCHEDULED, CATCH_UP, MANUAL or REPLAY, was '" + text + "'");
        }
    }
}
