package dev.punctual.cli.reading;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.Completions;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.output.ColumnOptions;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.RelativeTime;
import dev.punctual.cli.output.Table;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.cli.stage.StageOptions;
import dev.punctual.cli.stage.StageTarget;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.PauseMark;
import dev.punctual.stage.StageFlags;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code jobs}: the catalog this CLI was built with, without a database or AWS: each job's schedule as
 * written and as deployed, zone, lock group, pool, flags and its next runs, local and UTC, with how far
 * away they are. With {@code --stage} or {@code --endpoint} also which jobs an operator paused (decision
 * 0040), by the job or by its lock group, read in one request per 100 lock items; without them it sends
 * no request at all.
 */
@Command(
        name = "jobs",
        mixinStandardHelpOptions = true,
        description = "Lists the catalog's jobs: schedule as written and as deployed, zone, lock group, pool, flags,"
                + " next runs (local and UTC, relative); needs no database. With --stage or --endpoint also"
                + " which are paused (punctual pause), by whom, why, since and until when.")
public final class JobsCommand implements Callable<Integer>, ColumnOptions.Tabled {

    /** Every column of the table ({@code -o wide}). */
    static final String[] HEADER = {
        "JOB",
        "SCHEDULE",
        "DEPLOYED",
        "OFFSET",
        "ZONE",
        "LOCK GROUP",
        "POOL",
        "CATCH-UP",
        "DEADLINE",
        "FRESH WITHIN",
        "ATTEMPTS",
        "LONG",
        "TABLES",
        "EXCLUSIONS",
        "FLAGS",
        "NEXT (LOCAL)",
        "NEXT (UTC)",
        "IN"
    };

    /** The next-local column of a job whose schedule has ended. */
    static final String NO_MORE = "no more occurrences";

    /** What fits a 120-column terminal: the job, its deployed schedule, zone and next run (about 100 columns). */
    static final List<String> NARROW = List.of("job", "deployed", "zone", "next-local", "in");

    /** The column a stage's read adds after JOB: whether an operator's pause stops the job, and whose. */
    static final String PAUSED = "PAUSED";

    private final Clock clock;
    private final CliContext context;

    /** Optional: without --stage or --endpoint, jobs reads the catalog only. */
    @Mixin
    StageOptions stage;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    OutputOptions output;

    @Mixin
    ColumnOptions columns;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "JOB",
            description = "Only this job",
            completionCandidates = Completions.JobIds.class)
    String job;

    @Option(
            names = "--next",
            paramLabel = "N",
            defaultValue = "1",
            description = "Next runs per job (0-100, default ${DEFAULT-VALUE})")
    int next;

    /** Where the catalog comes from: the one this CLI was built with, or a test's. */
    private final java.util.function.Supplier<JobCatalog> catalog;

    public JobsCommand(CliContext context) {
        // The definitions do not depend on the stage's flags; dev's are the safe ones to load them with.
        this(context, () -> OperatorSession.definitions(StageFlags.defaultsFor(StageTarget.EMULATOR_STAGE)));
    }

    /** A test's catalog, on the process's AWS access (used only with a stage). */
    public JobsCommand(Clock clock, java.util.function.Supplier<JobCatalog> catalog) {
        this(CliContext.withClock(clock), catalog);
    }

    public JobsCommand(CliContext context, java.util.function.Supplier<JobCatalog> catalog) {
        this.context = context;
        this.clock = context.clock();
        this.catalog = catalog;
    }

    @Override
    public Integer call() throws JsonProcessingException {
        if (next < 0 || next > 100) {
            throw new OperatorInputException("--next: '" + next + "' is out of range; accepted: 0-100");
        }
        List<String> withoutTarget = stage.givenWithoutTarget();
        if (!withoutTarget.isEmpty()) {
            throw new OperatorInputException(String.join(", ", withoutTarget)
                    + ": only with a stage; accepted: jobs alone (the catalog, no request), or with --stage NAME"
                    + " or --endpoint URL (also which jobs are paused)");
        }
        JobCatalog catalog = this.catalog.get();
        List<JobDefinition> jobs = job == null ? catalog.jobs() : List.of(Remote.known(catalog, job));
        Instant now = clock.instant();
        Map<String, PauseMark> marks = stage.named() ? pauses(jobs) : null;
        List<Map<String, Object>> rows = new ArrayList<>();
        for (JobDefinition definition : jobs) {
            Map<String, Object> row = row(definition, now);
            if (marks != null) {
                row.put("paused", Pauses.holding(marks::get, definition, definition.id(), now));
            }
            rows.add(row);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.isJson()) {
            Map<String, Object> report = new LinkedHashMap<>();
            if (marks != null) {
                report.put("stage", stage.stageName());
            }
            report.put("now", now.toString());
            report.put("jobs", rows);
            out.println(Json.mapper().writeValueAsString(report));
        } else {
            out.println(Table.render(Table.only(table(rows, marks != null), columns.shown()))
                    + (marks == null ? "" : pauseNotes(rows)));
        }
        return 0;
    }

    /**
     * Every job's own lock item and its group's, in one request per 100 (a listing's read: eventually
     * consistent, so a pause set a moment ago may show only on the next listing). Entities' pauses are
     * not read: {@code status JOB --entity E} shows one.
     */
    private Map<String, PauseMark> pauses(List<JobDefinition> jobs) {
        java.util.Set<String> ids = new java.util.LinkedHashSet<>();
        jobs.forEach(j -> ids.addAll(Pauses.lockIds(j, j.id())));
        try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
            return session.runtime.services().ledger().pauses(ids);
        }
    }

    /** After the table: each paused job, who paused it (or its group), why, since and until when. */
    @SuppressWarnings("unchecked")
    private static String pauseNotes(List<Map<String, Object>> rows) {
        StringBuilder notes = new StringBuilder();
        for (Map<String, Object> r : rows) {
            Map<String, Object> paused = (Map<String, Object>) r.get("paused");
            if (paused == null) {
                continue;
            }
            boolean group = "group".equals(paused.get("scope"));
            notes.append(System.lineSeparator())
                    .append(r.get("job"))
                    .append(": paused")
                    .append(group ? " with its lock group " + paused.get("id") : "")
                    .append(" by ")
                    .append(paused.get("paused_by"))
                    .append(" since ")
                    .append(paused.get("since"))
                    .append(paused.get("until") == null ? ", until resumed" : ", until " + paused.get("until"))
                    .append(": ")
                    .append(paused.get("reason"))
                    .append(" (punctual resume ")
                    .append(group ? "--group " + paused.get("id") : paused.get("id"))
                    .append(" --catch-up or --skip-paused)");
        }
        return notes.toString();
    }

    /** Every column; with a stage, PAUSED after JOB. */
    @Override
    public String[] header() {
        return stage != null && stage.named() ? withPaused(HEADER) : HEADER.clone();
    }

    @Override
    public List<String> narrow() {
        if (stage != null && stage.named()) {
            List<String> shown = new ArrayList<>(NARROW);
            shown.add(1, "paused");
            return List.copyOf(shown);
        }
        return NARROW;
    }

    private static String[] withPaused(String[] header) {
        List<String> all = new ArrayList<>(List.of(header));
        all.add(1, PAUSED);
        return all.toArray(String[]::new);
    }

    /** The PAUSED column: {@code job} or {@code group G} while a pause holds, else {@code -}. */
    @SuppressWarnings("unchecked")
    private static String pausedColumn(Map<String, Object> row) {
        Map<String, Object> paused = (Map<String, Object>) row.get("paused");
        if (paused == null) {
            return "-";
        }
        return "group".equals(paused.get("scope")) ? "group " + paused.get("id") : "job";
    }

    @Override
    public OutputOptions output() {
        return output;
    }

    private Map<String, Object> row(JobDefinition job, Instant now) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("job", job.id());
        row.put("schedule", job.schedule().expression().source());
        // A per-entity job has no schedule of its own: the stage deploys none, and each entity names its zone.
        row.put("deployed", job.isPerEntity() ? PER_ENTITY : job.deployment().expression());
        // A spread job's schedule fires this many minutes after each occurrence (decision 0035).
        row.put("offset_minutes", job.offsetMinutes());
        row.put(
                "spread_over",
                job.spread() == null ? null : job.spread().window().window().toString());
        row.put("zone", job.isPerEntity() ? PER_ENTITY : job.schedule().zone().getId());
        row.put("lock_group", job.lockGroup());
        row.put("pool", job.pool().name());
        row.put("flags", flags(job));
        row.put("catch_up", catchUp(job));
        // The latest an occurrence may start after its time (decision 0032); null for none.
        row.put("start_deadline", job.deadline().map(Duration::toString).orElse(null));
        // Freshness (decision 0042): the job's own bound; else the stage's default, which jobs (no --stage)
        // does not resolve, or none for a job that opted out or runs per entity.
        row.put("fresh_within", freshWithin(job));
        row.put("max_attempts", job.maxAttempts());
        // A long job's limits (decision 0039): one execution per occurrence, within max_duration.
        row.put("long", longRun(job));
        row.put(
                "tables",
                job.tables().stream().map(dev.punctual.job.JobTable::name).toList());
        // What keeps occurrences from running, one line each: a calendar's business-day rule or its dates,
        // a recurring blackout (declared with the job or the catalog); none for most jobs.
        row.put("exclusions", job.exclusions().describe());
        row.put("next", job.isPerEntity() ? List.of() : NextRuns.after(job.occurrences(), now, next));
        // A one-time schedule already past, or an RRULE whose COUNT or UNTIL has ended (decision 0049).
        row.put(
                "no_more_occurrences",
                !job.isPerEntity() && job.occurrences().next(now).isEmpty());
        row.put("description", job.description());
        return row;
    }

    private static Map<String, Object> longRun(JobDefinition job) {
        if (!job.isLong()) {
            return null;
        }
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("max_duration", job.longRun().maxDuration().toString());
        limits.put("chunks_at_once", job.longRun().chunksAtOnce());
        limits.put("summary", job.longRun().describe());
        return limits;
    }

    /** The policy as written and what it means for this schedule: the shape a team copies, visible. */
    private static Map<String, Object> catchUp(JobDefinition job) {
        Map<String, Object> policy = new LinkedHashMap<>();
        policy.put("mode", job.catchUp().mode().name().toLowerCase(java.util.Locale.ROOT));
        policy.put("max_occurrences", job.catchUp().maxOccurrences());
        policy.put("within", job.catchUp().maxAge().toString());
        policy.put("summary", job.catchUp().describe());
        return policy;
    }

    /** The job's own bound (ISO-8601), {@code stage default}, or null when it is never watched. */
    private static String freshWithin(JobDefinition job) {
        if (job.freshWithin() != null) {
            return job.freshWithin().equals(JobDefinition.NOT_WATCHED_FOR_FRESHNESS)
                    ? null
                    : job.freshWithin().toString();
        }
        return job.isPerEntity() || job.schedule().longestPeriod().isEmpty() ? null : STAGE_DEFAULT;
    }

    /** What {@code fresh_within} says of a job held to its stage's default bound, if the stage sets one. */
    static final String STAGE_DEFAULT = "stage default";

    private static String freshColumn(Object bound) {
        if (bound == null) {
            return "-";
        }
        return STAGE_DEFAULT.equals(bound) ? STAGE_DEFAULT : RelativeTime.readable(Duration.parse((String) bound));
    }

    /** What {@code deployed} and {@code zone} say of a per-entity job: each entity has its own (docs/entities.md). */
    static final String PER_ENTITY = "per entity";

    private static List<String> flags(JobDefinition job) {
        List<String> flags = new ArrayList<>();
        if (job.isPerEntity()) {
            flags.add("per-entity");
        }
        if (job.isLong()) {
            flags.add("long");
        }
        if (job.destructive()) {
            flags.add("destructive");
        }
        // Decision 0041: each occurrence runs only after punctual approve (always, or where destructive jobs may run).
        if (job.approval() == dev.punctual.job.ApprovalRule.ALWAYS) {
            flags.add("approval");
        }
        if (job.approval() == dev.punctual.job.ApprovalRule.WHERE_DESTRUCTIVE_ALLOWED) {
            flags.add("approval-where-destructive");
        }
        if (job.externalDelivery()) {
            flags.add("delivery");
        }
        if (job.perJobMetrics()) {
            flags.add("metrics");
        }
        if (job.safeToVerify()) {
            flags.add("safe-to-verify");
        }
        return flags;
    }

    /** "+7m of 10m" for a spread job (its offset and window), "-" for one deployed at its occurrences. */
    private static String offset(Map<String, Object> row) {
        Object window = row.get("spread_over");
        return window == null
                ? "-"
                : "+" + row.get("offset_minutes") + "m of "
                        + Duration.parse((String) window).toMinutes() + "m";
    }

    /** "within PT6H, 4 chunks at once" for a long job, "-" for one that runs in one invocation. */
    private static String longColumn(Map<String, Object> limits) {
        return limits == null ? "-" : ((String) limits.get("summary")).substring("long: ".length());
    }

    private static String exclusions(List<String> lines) {
        return lines.isEmpty() ? "-" : String.join("; ", lines);
    }

    private static String tables(List<String> names) {
        return names.isEmpty() ? "-" : String.join(",", names);
    }

    @SuppressWarnings("unchecked")
    private static List<String[]> table(List<Map<String, Object>> rows, boolean staged) {
        List<String[]> lines = new ArrayList<>();
        lines.add(staged ? withPaused(HEADER) : HEADER.clone());
        for (Map<String, Object> r : rows) {
            List<Map<String, String>> next = (List<Map<String, String>>) r.get("next");
            List<String> flags = (List<String>) r.get("flags");
            int runs = Math.max(1, next.size());
            for (int i = 0; i < runs; i++) {
                boolean first = i == 0;
                Map<String, String> run = i < next.size() ? next.get(i) : Map.of();
                String[] line = {
                    first ? (String) r.get("job") : "",
                    first ? (String) r.get("schedule") : "",
                    first ? (String) r.get("deployed") : "",
                    first ? offset(r) : "",
                    first ? (String) r.get("zone") : "",
                    first ? (String) r.get("lock_group") : "",
                    first ? (String) r.get("pool") : "",
                    first ? (String) ((Map<String, Object>) r.get("catch_up")).get("summary") : "",
                    first ? java.util.Objects.toString(r.get("start_deadline"), "-") : "",
                    first ? freshColumn(r.get("fresh_within")) : "",
                    first ? String.valueOf(r.get("max_attempts")) : "",
                    first ? longColumn((Map<String, Object>) r.get("long")) : "",
                    first ? tables((List<String>) r.get("tables")) : "",
                    first ? exclusions((List<String>) r.get("exclusions")) : "",
                    first ? (flags.isEmpty() ? "-" : String.join(",", flags)) : "",
                    run.getOrDefault("local", Boolean.TRUE.equals(r.get("no_more_occurrences")) ? NO_MORE : "-"),
                    run.getOrDefault("utc", "-"),
                    run.getOrDefault("in", "-")
                };
                if (staged) {
                    List<String> cells = new ArrayList<>(List.of(line));
                    cells.add(1, first ? pausedColumn(r) : "");
                    line = cells.toArray(String[]::new);
                }
                lines.add(line);
            }
        }
        return lines;
    }
}
