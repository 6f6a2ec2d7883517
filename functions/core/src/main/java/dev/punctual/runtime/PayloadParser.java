package dev.punctual.runtime;

import dev.punctual.AsciiDigits;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.entity.EntityScheduleException;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.json.Json;
import dev.punctual.time.InstantText;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the handler's raw input into an {@link Invocation} or an {@link InvalidPayload}. Everything the
 * runtime later relies on (known job, parseable times, sane bounds) is checked here, so a bad payload
 * writes nothing.
 */
public final class PayloadParser {

    /** Replays are bounded: one invocation never runs more than this many occurrences. */
    public static final int MAX_REPLAY = 1000;

    public static final int DEFAULT_REPLAY = 100;

    private static final String KINDS = "scheduled, run, replay or ping";

    private final JobCatalog catalog;

    public PayloadParser(JobCatalog catalog) {
        this.catalog = catalog;
    }

    /** A parse result: exactly one of the two is present. */
    public sealed interface Parsed {
        /**
         * @param oldNamesUsed the renamed fields the payload still used under their old names
         *     ({@link RenamedFields}): read, and logged as a warning so the writer is found before they are refused
         */
        record Valid(Invocation invocation, List<String> oldNamesUsed) implements Parsed {
            public Valid {
                oldNamesUsed = List.copyOf(oldNamesUsed);
            }

            public Valid(Invocation invocation) {
                this(invocation, List.of());
            }

            Valid withInvocation(Invocation resolved) {
                return new Valid(resolved, oldNamesUsed);
            }
        }

        record Invalid(InvalidPayload problem) implements Parsed {}
    }

    public Parsed parse(String raw) {
        try {
            RenamedFields.Read read = renamed(readObject(raw));
            return new Parsed.Valid(invocation(read.fields()), read.oldNamesUsed());
        } catch (Refusal refusal) {
            return new Parsed.Invalid(refusal.problem);
        }
    }

    private static RenamedFields.Read renamed(Map<String, Object> root) throws Refusal {
        try {
            return RenamedFields.read(root);
        } catch (IllegalArgumentException both) {
            String renamed = both.getMessage();
            String old = RenamedFields.OLD_TO_NEW.entrySet().stream()
                    .filter(e -> e.getValue().equals(renamed))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElseThrow();
            throw new Refusal(
                    "DUPLICATE_FIELD",
                    renamed,
                    "fields '" + renamed + "' and '" + old + "' are the same field (" + old
                            + " is its old name, read until " + RenamedFields.REFUSED_FROM
                            + "); give it once, as " + renamed);
        }
    }

    /** The entity fields: only a per-entity job's payloads have them, and they must. */
    private static final List<String> ENTITY_FIELDS = List.of(
            ScheduledPayload.ENTITY, ScheduledPayload.SCHEDULE, ScheduledPayload.ZONE, ScheduledPayload.PARAMETERS);

    /**
     * The fields each kind of payload has. Anything else is refused before it is read: a misspelled
     * {@code "dryrun": true} ignored would run the job for real, and a misspelled {@code "forse"} would
     * quietly not force it.
     */
    static final Map<String, List<String>> FIELDS = Map.of(
            ScheduledPayload.KIND_SCHEDULED,
            aboutAJob(
                    ScheduledPayload.OFFSET_MINUTES,
                    ScheduledPayload.SCHEDULED_TIME,
                    ScheduledPayload.EXECUTION_ID,
                    ScheduledPayload.ATTEMPT_NUMBER,
                    ScheduledPayload.SCHEDULE_ARN),
            "run",
            aboutAJob(ScheduledPayload.AT, ScheduledPayload.FORCE, ScheduledPayload.DRY_RUN),
            "replay",
            aboutAJob(
                    ScheduledPayload.FROM,
                    ScheduledPayload.TO,
                    ScheduledPayload.MAX,
                    ScheduledPayload.DRY_RUN,
                    ScheduledPayload.FORCE),
            "ping",
            List.of(ScheduledPayload.KIND));

    /** A kind about a job: its kind, its job, an entity's fields for a per-entity job, then its own. */
    private static List<String> aboutAJob(String... own) {
        List<String> fields = new java.util.ArrayList<>(List.of(ScheduledPayload.KIND, ScheduledPayload.JOB));
        fields.addAll(ENTITY_FIELDS);
        fields.addAll(List.of(own));
        return List.copyOf(fields);
    }

    private Invocation invocation(Map<String, Object> root) throws Refusal {
        String kind = text(root, ScheduledPayload.KIND);
        List<String> fields = FIELDS.get(kind);
        if (fields != null) {
            // The entity fields are named as accepted only where they are: for a per-entity job, or no job known.
            boolean oneSchedule = root.get(ScheduledPayload.JOB) instanceof String id
                    && catalog.find(id).filter(j -> !j.isPerEntity()).isPresent();
            List<String> accepted = oneSchedule
                    ? fields.stream()
                            .filter(f -> !ENTITY_FIELDS.contains(f) && !f.equals(ScheduledPayload.OFFSET_MINUTES))
                            .toList()
                    : fields;
            for (String name : root.keySet()) {
                if (!fields.contains(name)) {
                    throw new Refusal(
                            "UNKNOWN_FIELD",
                            name,
                            "field '" + FieldNames.shown(name) + "' is not a field of a " + kind
                                    + " payload; accepted: " + String.join(", ", accepted)
                                    + FieldNames.didYouMean(name, accepted));
                }
            }
        }
        return switch (kind) {
            case ScheduledPayload.KIND_SCHEDULED -> scheduled(root);
            case "run" ->
                new Invocation.ManualRun(
                        subject(root),
                        optionalTime(root, ScheduledPayload.AT),
                        bool(root, ScheduledPayload.FORCE),
                        bool(root, ScheduledPayload.DRY_RUN));
            case "replay" -> replay(root);
            case "ping" -> new Invocation.Ping();
            default -> throw new Refusal("UNKNOWN_KIND", "kind", "kind '" + kind + "' is not known; expected " + KINDS);
        };
    }

    /**
     * A scheduler's delivery. A spread entity's or job's schedule fires its offset after the nominal
     * occurrence (decisions 0030 and 0035), so the occurrence it delivers, checked and keyed as every other,
     * is the scheduled time minus the offset its input carries: the offset it was deployed with, even if
     * the window changed since (a deploy updates the function before the schedule, and an entity's next put
     * redeploys it). One rule for every job: a time that is not an occurrence after the offset is refused as
     * NOT_AN_OCCURRENCE, as any other.
     */
    private Invocation scheduled(Map<String, Object> root) throws Refusal {
        RunSubject subject = subject(root);
        int offset = offsetMinutes(root);
        return new Invocation.Scheduled(
                subject,
                time(root, ScheduledPayload.SCHEDULED_TIME).minusSeconds(60L * offset),
                optionalText(root, ScheduledPayload.EXECUTION_ID).orElse(""),
                attemptNumber(root),
                optionalText(root, ScheduledPayload.SCHEDULE_ARN).orElse(""));
    }

    private static int offsetMinutes(Map<String, Object> root) throws Refusal {
        String field = ScheduledPayload.OFFSET_MINUTES;
        Object node = root.get(field);
        if (node == null) {
            return 0;
        }
        if (!(node instanceof Long value) || value < 0 || value > MAX_OFFSET_MINUTES) {
            throw new Refusal(
                    "WRONG_TYPE",
                    field,
                    "field '" + field + "' must be a whole number of minutes from 0 to " + MAX_OFFSET_MINUTES
                            + " (a spread of at most an hour), was " + Json.write(node));
        }
        return value.intValue();
    }

    /** The largest offset a spread deploys ({@code Spread.LONGEST} less a minute). */
    private static final int MAX_OFFSET_MINUTES = (int) dev.punctual.time.Spread.LONGEST.toMinutes() - 1;

    private Invocation replay(Map<String, Object> root) throws Refusal {
        RunSubject job = subject(root);
        Instant from = time(root, ScheduledPayload.FROM);
        Instant to = time(root, ScheduledPayload.TO);
        if (!to.isAfter(from)) {
            throw new Refusal("BAD_RANGE", "to", "to (" + to + ") must be after from (" + from + "); to is exclusive");
        }
        int max = root.get(ScheduledPayload.MAX) != null ? integer(root, ScheduledPayload.MAX) : DEFAULT_REPLAY;
        if (max < 1 || max > MAX_REPLAY) {
            throw new Refusal("BAD_RANGE", "max", "max " + max + " is out of range; expected 1 to " + MAX_REPLAY);
        }
        return new Invocation.Replay(
                job, from, to, max, bool(root, ScheduledPayload.DRY_RUN), bool(root, ScheduledPayload.FORCE));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readObject(String raw) throws Refusal {
        Object root;
        try {
            root = raw == null || raw.isBlank() ? null : Json.read(raw);
        } catch (Json.NotJsonException e) {
            throw new Refusal("NOT_JSON", null, "the payload is not JSON: " + e.getMessage());
        }
        if (!(root instanceof Map<?, ?> map)) {
            throw new Refusal(
                    "NOT_AN_OBJECT", null, "the payload must be a JSON object with a \"kind\" (" + KINDS + ")");
        }
        return (Map<String, Object>) map;
    }

    /**
     * The job, and for a per-entity job its entity with the entity's own schedule, checked by the same
     * rules as the put that created that schedule ({@link EntitySchedule#of}): a delivery is input from
     * outside like any other.
     */
    private RunSubject subject(Map<String, Object> root) throws Refusal {
        JobDefinition job = job(root);
        if (!job.isPerEntity()) {
            for (String field : ENTITY_FIELDS) {
                if (root.containsKey(field)) {
                    throw new Refusal(
                            "UNKNOWN_FIELD",
                            field,
                            "field '" + field + "' is for a job that runs per entity; " + job.id()
                                    + " has one schedule of its own");
                }
            }
            return RunSubject.of(job);
        }
        String entity = text(root, ScheduledPayload.ENTITY);
        Optional<String> expression = optionalText(root, ScheduledPayload.SCHEDULE);
        String zone = text(root, ScheduledPayload.ZONE);
        Object parameters = root.get(ScheduledPayload.PARAMETERS);
        if (parameters != null && !(parameters instanceof Map<?, ?>)) {
            throw new Refusal(
                    "WRONG_TYPE",
                    ScheduledPayload.PARAMETERS,
                    "field 'parameters' must be a JSON object, was " + Json.write(parameters));
        }
        try {
            @SuppressWarnings("unchecked")
            Map<String, ?> given = (Map<String, ?>) parameters;
            return RunSubject.of(job, EntitySchedule.of(job, entity, expression.orElse(null), zone, given));
        } catch (EntityScheduleException e) {
            throw new Refusal("BAD_ENTITY", e.field(), e.getMessage());
        }
    }

    private JobDefinition job(Map<String, Object> root) throws Refusal {
        String id = text(root, ScheduledPayload.JOB);
        Optional<JobDefinition> job = catalog.find(id);
        if (job.isEmpty()) {
            // The same did-you-mean as every other refusal, on the CLI's --endpoint path and the function's alike.
            throw new Refusal(
                    "UNKNOWN_JOB",
                    "job",
                    "job '" + FieldNames.shown(id) + "' is not in the catalog; known: " + catalog.ids()
                            + FieldNames.didYouMean(id, catalog.ids()));
        }
        return job.get();
    }

    /** Scheduler context attributes arrive as text ("<aws.scheduler.attempt-number>" becomes "1"). */
    private static int attemptNumber(Map<String, Object> root) throws Refusal {
        Object node = root.get(ScheduledPayload.ATTEMPT_NUMBER);
        if (node == null) {
            return 1;
        }
        String text = String.valueOf(node);
        // The scheduler substitutes 1 to 186 as text; a bound on the length keeps the parse cheap, and
        // only 0-9 are digits (Integer.parseInt would also read other scripts' digits).
        String trimmed = text.trim();
        if (!AsciiDigits.matches(trimmed, 9) || Integer.parseInt(trimmed) < 1) {
            throw new Refusal(
                    "WRONG_TYPE",
                    ScheduledPayload.ATTEMPT_NUMBER,
                    ScheduledPayload.ATTEMPT_NUMBER + " '" + FieldNames.shown(text)
                            + "' is not a positive whole number; accepted: 1, 2, ...");
        }
        return Integer.parseInt(trimmed);
    }

    private static String text(Map<String, Object> root, String field) throws Refusal {
        return optionalText(root, field)
                .orElseThrow(() -> new Refusal("MISSING_FIELD", field, "field '" + field + "' is required"));
    }

    private static Optional<String> optionalText(Map<String, Object> root, String field) throws Refusal {
        Object node = root.get(field);
        if (node == null) {
            return Optional.empty();
        }
        if (!(node instanceof String text)) {
            throw new Refusal("WRONG_TYPE", field, "field '" + field + "' must be a string, was " + Json.write(node));
        }
        return Optional.of(text);
    }

    private static Instant time(Map<String, Object> root, String field) throws Refusal {
        return optionalTime(root, field)
                .orElseThrow(() -> new Refusal("MISSING_FIELD", field, "field '" + field + "' is required"));
    }

    private static Optional<Instant> optionalTime(Map<String, Object> root, String field) throws Refusal {
        Optional<String> text = optionalText(root, field);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> problem = InstantText.problem(text.get());
        if (problem.isPresent()) {
            throw new Refusal(
                    "BAD_TIME",
                    field,
                    "field '" + field + "' value '" + text.get() + "' " + problem.get() + "; accepted: "
                            + InstantText.ACCEPTED);
        }
        Instant time = InstantText.parse(text.get()).orElseThrow();
        if (!OccurrenceCalculator.covers(time)) {
            throw new Refusal(
                    "BAD_TIME",
                    field,
                    "field '" + field + "' value '" + text.get() + "' is outside the years EventBridge schedules ("
                            + OccurrenceCalculator.YEARS + ")");
        }
        return Optional.of(time);
    }

    private static boolean bool(Map<String, Object> root, String field) throws Refusal {
        Object node = root.get(field);
        if (node == null) {
            return false;
        }
        if (!(node instanceof Boolean value)) {
            throw new Refusal(
                    "WRONG_TYPE", field, "field '" + field + "' must be true or false, was " + Json.write(node));
        }
        return value;
    }

    private static int integer(Map<String, Object> root, String field) throws Refusal {
        Object node = root.get(field);
        if (!(node instanceof Long value) || value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new Refusal(
                    "WRONG_TYPE", field, "field '" + field + "' must be a whole number, was " + Json.write(node));
        }
        return value.intValue();
    }

    /** Internal control flow for refusals; never leaves this class. */
    private static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient InvalidPayload problem;

        Refusal(String code, String field, String message) {
            super(message, null, false, false);
            this.problem = new InvalidPayload(code, field, message);
        }
    }
}
