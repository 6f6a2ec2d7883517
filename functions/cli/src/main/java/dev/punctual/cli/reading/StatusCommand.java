package dev.punctual.cli.reading;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.control.SkipCommand;
import dev.punctual.cli.input.Completions;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.output.ColumnOptions;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.RelativeTime;
import dev.punctual.cli.output.Table;
import dev.punctual.cli.schedules.EntityDelivery;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.cli.stage.StageOptions;
import dev.punctual.entity.EntityIds;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.MaintenanceCondition;
import dev.punctual.ledger.Attempt;
import dev.punctual.ledger.LockSlots;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.observability.VisibleText;
import dev.punctual.runtime.ConditionProbe;
import dev.punctual.runtime.ConditionState;
import dev.punctual.runtime.EntityLeaseTerms;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code status [JOB [--entity E]]}: per job its cursor, last outcome, lag, next occurrences,
 * operators' skips ahead (decision 0033) and maintenance; for one entity of a per-entity job the same under its ledger id {@code job:entity}. A
 * per-entity job without {@code --entity} shows its group's maintenance and lease only: its state is per
 * entity, and status never scans them all.
 */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = "Shows each job's cursor, last outcome, lag, next occurrences, the skips ahead of it (punctual"
                + " skip) and maintenance; with --entity, one entity's of a per-entity job.")
public final class StatusCommand implements Callable<Integer>, ColumnOptions.Tabled {

    /** Every column of the table ({@code -o wide}). */
    static final String[] HEADER = {
        "JOB",
        "LOCK GROUP",
        "CURSOR (UTC)",
        "LAST",
        "LAG",
        "NEXT (LOCAL)",
        "IN",
        "HELD",
        "MAINTENANCE",
        "LEASE",
        "LAST SUCCESS"
    };

    /**
     * What fits a 120-column terminal: the last outcome, the lag, the next occurrences and whether
     * anything holds the job ({@code maintenance} or the lease's kind); -o wide shows who, why and until.
     */
    static final List<String> NARROW = List.of("job", "last", "lag", "next-local", "in", "held");

    private final Clock clock;
    private final CliContext context;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    StageOptions stage;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "JOB",
            description = "One job (default: all)",
            completionCandidates = Completions.JobIds.class)
    String job;

    @Mixin
    OutputOptions output;

    @Mixin
    ColumnOptions columns;

    @Option(
            names = "--next",
            paramLabel = "N",
            defaultValue = "3",
            description = "Next occurrences to show (default ${DEFAULT-VALUE})")
    int next;

    @Option(
            names = "--watch",
            description = "Show the status again every --every until Ctrl-C (JSON: one object per line)")
    boolean watch;

    @Option(
            names = "--every",
            paramLabel = "DURATION",
            description = "With --watch: how often, e.g. 5s or 1m (default: 10s; 1s to 1h)")
    String every;

    @Option(
            names = "--entity",
            paramLabel = "ENTITY",
            description = "With a per-entity JOB: that entity's cursor, lease, last run and next occurrences (its"
                    + " ledger id JOB:ENTITY; its schedule read from the stage's entity group); refused for a job of"
                    + " one schedule")
    String entity;

    /** The catalog by stage name for what status shows, or null for the session's (the class path's). */
    private final Function<String, JobCatalog> catalogs;

    public StatusCommand(CliContext context) {
        this(context, null);
    }

    /** @param catalogs a test's catalog by stage name; null for the session's */
    public StatusCommand(CliContext context, Function<String, JobCatalog> catalogs) {
        this.context = context;
        this.clock = context.clock();
        this.catalogs = catalogs;
    }

    /** Whose state one row shows: a job, a per-entity job's group, or one of its entities. */
    private record Subject(
            JobDefinition job,
            Optional<String> entity,
            String ledgerId,
            Optional<Schedule> schedule,
            String leaseGroup,
            Optional<String> deployed) {

        static Subject of(JobDefinition job) {
            return new Subject(
                    job,
                    Optional.empty(),
                    job.id(),
                    job.isPerEntity() ? Optional.empty() : Optional.of(job.schedule()),
                    job.lockGroup(),
                    // Shifted by the job's spread (decision 0035).
                    job.isPerEntity()
                            ? Optional.empty()
                            : Optional.of(job.deployment().expression()));
        }

        /** One entity, under its ledger id; its lease is its own unless the job keeps one for all. */
        static Subject of(JobDefinition job, String entity, Optional<EntitySchedule> schedule) {
            String ledgerId = EntityIds.ledgerId(job.id(), entity);
            return new Subject(
                    job,
                    Optional.of(entity),
                    ledgerId,
                    schedule.map(EntitySchedule::schedule),
                    EntityLeaseTerms.ownLeases(job) ? ledgerId : job.lockGroup(),
                    // Shifted by the entity's spread (decision 0030).
                    schedule.map(s -> s.deployment().expression()));
        }

        boolean wholeGroup() {
            return job.isPerEntity() && entity.isEmpty();
        }
    }

    @Override
    public Integer call() throws JsonProcessingException {
        if (next < 0 || next > 100) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--next: '" + next + "' is out of range; accepted: 0-100");
        }
        Duration interval =
                Repeating.interval(spec.commandLine(), every, watch, "--watch", DEFAULT_EVERY, Duration.ofSeconds(1));
        if (entity != null && job == null) {
            throw new OperatorInputException("--entity: needs JOB, the per-entity job the entity is of; accepted:"
                    + " status JOB --entity ENTITY");
        }
        PrintWriter out = spec.commandLine().getOut();
        boolean json = output.isJson();
        try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
            JobCatalog catalog = catalogs == null ? session.catalog : catalogs.apply(stage.stageName());
            List<Subject> subjects =
                    job == null ? catalog.jobs().stream().map(Subject::of).toList() : List.of(subject(catalog));
            while (true) {
                Instant now = clock.instant();
                List<Map<String, Object>> rows = new ArrayList<>();
                for (Subject subject : subjects) {
                    rows.add(row(
                            subject,
                            catalog.groupCapacity(subject.job().lockGroup()),
                            session.runtime.services().ledger(),
                            now));
                }
                Map<String, Object> report = new LinkedHashMap<>();
                report.put("stage", stage.stageName());
                report.put("now", now.toString());
                report.put("jobs", rows);
                // Only a catalog that declares maintenance conditions has the field (and its one query each).
                List<Map<String, Object>> conditions =
                        conditions(catalog, session.runtime.services().conditions());
                if (!conditions.isEmpty()) {
                    report.put("conditions", conditions);
                }
                if (watch && !json) {
                    out.println("stage " + stage.stageName() + " at " + now + " (every " + interval.toSeconds()
                            + "s; Ctrl-C stops)");
                }
                out.println(
                        json
                                ? Json.mapper().writeValueAsString(report)
                                : Table.render(Table.only(table(rows, now), columns.shown()))
                                        + notes(subjects, rows)
                                        + conditionLines(conditions));
                out.flush();
                if (!watch) {
                    return 0;
                }
                if (!Repeating.waited(context.sleeper(), interval)) {
                    return 0;
                }
                if (!json) {
                    out.println();
                }
            }
        }
    }

    /**
     * Each maintenance condition of the catalog (decision 0036, 5) as the runtime would judge it now,
     * through the same probe but with this CLI's credentials: {@code holds} (jobs skip as MAINTENANCE),
     * {@code clear}, or {@code unknown} with why (jobs skip as MAINTENANCE_UNKNOWN only if the functions
     * cannot read it either: {@code verify} asks them).
     */
    private static List<Map<String, Object>> conditions(JobCatalog catalog, ConditionProbe probe) {
        List<MaintenanceCondition> declared = catalog.maintenanceConditions();
        List<ConditionState> states = ConditionState.evaluate(declared, probe);
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < declared.size(); i++) {
            MaintenanceCondition condition = declared.get(i);
            ConditionState state = states.get(i);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("condition", condition.name());
            m.put("table", condition.table().name());
            m.put("reason", condition.reason());
            m.put("state", state.state().name().toLowerCase(java.util.Locale.ROOT));
            state.why().ifPresent(why -> m.put("detail", VisibleText.escaped(why)));
            out.add(m);
        }
        return out;
    }

    /** After the table: each condition, and what it does to the jobs now. */
    private static String conditionLines(List<Map<String, Object>> conditions) {
        StringBuilder lines = new StringBuilder();
        for (Map<String, Object> c : conditions) {
            lines.append(System.lineSeparator())
                    .append("maintenance condition ")
                    .append(c.get("condition"))
                    .append(" (table ")
                    .append(c.get("table"))
                    .append("): ")
                    .append(
                            switch ((String) c.get("state")) {
                                case "holds" -> "HOLDS, every job skips as MAINTENANCE: " + c.get("reason");
                                // Read with this CLI's credentials: an operator's role may not read the table,
                                // while the functions can (verify asks them).
                                case "unknown" ->
                                    "cannot be read from here (" + c.get("detail") + "); if the functions cannot"
                                            + " either, every job skips as MAINTENANCE_UNKNOWN: punctual verify asks them";
                                default -> "clear";
                            });
        }
        return lines.toString();
    }

    /** How often {@code --watch} shows the status again unless {@code --every} says. */
    static final Duration DEFAULT_EVERY = Duration.ofSeconds(10);

    /**
     * The one row asked for: the job; with {@code --entity} (a per-entity job only, checked by the same
     * rule as run's) its entity, with the schedule the stage's entity group holds for it, if any.
     */
    private Subject subject(JobCatalog catalog) {
        JobDefinition definition = Remote.known(catalog, job);
        Optional<Map.Entry<JobDefinition, String>> asked =
                EntityDelivery.asked(catalog, job, Optional.ofNullable(entity), false);
        if (asked.isEmpty()) {
            return Subject.of(definition);
        }
        Map.Entry<Optional<EntitySchedule>, String> read = EntityDelivery.read(context, stage, catalog, job, entity);
        Optional<EntitySchedule> schedule = read.getKey();
        if (schedule.isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println("status: entity '" + entity + "' of job '" + job + "' has no schedule in group "
                            + read.getValue() + ": its ledger state is shown, with no next occurrences");
        }
        return Subject.of(definition, asked.get().getValue(), schedule);
    }

    private Map<String, Object> row(Subject subject, int capacity, RunLedger ledger, Instant now) {
        JobDefinition job = subject.job();
        // Each lock item once per row: a job in its own group is its own lease, maintenance, freshness and
        // pause item, which would otherwise be read (strongly consistent) up to five times.
        Map<String, LockState> locks = new java.util.HashMap<>();
        java.util.function.Function<String, LockState> lock = id -> locks.computeIfAbsent(id, ledger::lock);
        // The job's occurrences (decision 0034): a holiday or a blackout's is not due, lagging or next.
        Optional<OccurrenceCalculator> calculator =
                subject.schedule().map(s -> OccurrenceCalculator.of(s, job.exclusions()));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("job", job.id());
        if (job.isPerEntity()) {
            row.put("per_entity", true);
            subject.entity().ifPresent(e -> {
                row.put("entity", e);
                row.put("ledger_id", subject.ledgerId());
            });
        }
        // The same keys as jobs and plan: schedule as written, deployed as EventBridge is given it.
        Optional<Schedule> schedule = subject.schedule();
        String none = subject.wholeGroup() ? JobsCommand.PER_ENTITY : null;
        row.put("schedule", schedule.map(s -> s.expression().source()).orElse(none));
        row.put("deployed", subject.deployed().orElse(none));
        row.put("zone", schedule.map(s -> s.zone().getId()).orElse(none));
        row.put("lock_group", job.lockGroup());
        if (subject.wholeGroup()) {
            // Its cursor and runs are each entity's: status JOB --entity ENTITY shows one (notes()).
            row.put("cursor", null);
            row.put("last", null);
            row.put("never_ran", null);
            row.put("lag_ms", null);
            row.put("next", List.of());
            row.put("skips", List.of());
        } else {
            String id = subject.ledgerId();
            Optional<Instant> cursor = ledger.cursor(id);
            Optional<Instant> due = calculator.flatMap(c -> c.previous(now.plusMillis(1)));
            Optional<RunRecord> last = due.flatMap(d -> ledger.run(new RunKey(id, d)))
                    .or(() -> cursor.flatMap(c -> ledger.run(new RunKey(id, c))));
            row.put("cursor", cursor.map(Instant::toString).orElse(null));
            row.put("last", last.map(StatusCommand::last).orElse(null));
            if (job.isLong()) {
                // A running long occurrence (an operator's run or a replay of an older one is not the last
                // due), else the one shown as last: its execution and chunks (decision 0039). One Query of the
                // newest executions, a read of each one's run, then one read and one query for the one shown.
                Optional<RunRecord> shown = LongStatus.running(ledger, id).or(() -> last);
                row.put(
                        "long",
                        shown.map(r -> LongStatus.of(ledger.longRuns(), r, lock.apply(subject.leaseGroup()), now))
                                .orElse(null));
            }
            // A job with no cursor and no run has never run here: no lag to speak of, and "0s" would read as
            // healthy; its first run is the first of "next".
            boolean neverRan = cursor.isEmpty() && last.isEmpty();
            row.put("never_ran", neverRan);
            row.put(
                    "lag_ms",
                    neverRan || calculator.isEmpty()
                            ? null
                            : lag(calculator.get(), cursor, now).toMillis());
            row.put("next", calculator.map(c -> NextRuns.after(c, now, next)).orElse(List.of()));
            // Planned or already met, each with who and why; one read of the lock item, one per skip.
            row.put(
                    "skips",
                    ledger.skipsAhead(id).stream().map(StatusCommand::skip).toList());
            freshness(row, job, lock.apply(id).lastSuccess(), now);
            // Decision 0041: pending approvals, read only for a job that may need one (one read per mark).
            if (job.approval() != dev.punctual.job.ApprovalRule.NEVER) {
                row.put(
                        "approvals",
                        ledger.approvalsAhead(id).stream()
                                .map(StatusCommand::approval)
                                .toList());
            }
        }
        // Maintenance is the job's group's, an entity's too: a hold on it holds every entity.
        row.put(
                "maintenance",
                ledger.maintenance(job.lockGroup())
                        .map(h -> hold(h, lock.apply(job.lockGroup())))
                        .orElse(null));
        if (capacity > 1) {
            // A group admitting N runs at once (decision 0051): every slot read once; the row's lease is the
            // slot this job's run holds, and "slots" shows which of them are in use and by whom.
            List<LockState> slots = LockSlots.slotIds(job.lockGroup(), capacity).stream()
                    .map(lock)
                    .toList();
            row.put(
                    "lease",
                    slots.stream()
                            .filter(s -> s.leaseHeldAt(now) && job.id().equals(s.leaseHolder()))
                            .findFirst()
                            .map(s -> lease(s, now))
                            .orElse(null));
            row.put("slots", slots(slots, capacity, now));
        } else {
            row.put("lease", lease(lock.apply(subject.leaseGroup()), now));
        }
        row.put("paused", Pauses.holding(id -> lock.apply(id).pause(), job, subject.ledgerId(), now));
        return row;
    }

    /** A pending approval (decision 0041): who, why, when and the preview they saw, all as stored (redacted). */
    private static Map<String, Object> approval(RunRecord record) {
        dev.punctual.ledger.Approval a = record.plannedApproval().orElseThrow();
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("job", record.key().jobId());
        out.put("at", record.key().scheduledTime().toString());
        out.put("by", a.by());
        out.put("reason", a.why());
        out.put("approved_at", a.at().toString());
        out.put("preview", a.preview());
        return out;
    }

    /**
     * The job's last success and its freshness bound (decision 0042): {@code last_success} (UTC, null before
     * the first the ledger noted), {@code fresh_within} (ISO-8601, null when the job is not watched: no bound
     * of its own and none from the stage's default as this build configures the stage) and {@code stale}:
     * true when the last success is older than the bound, null when it cannot be told here (not watched, or
     * never succeeded: the watchdog counts such a job from its go-live, which only the watchdog knows).
     */
    private void freshness(Map<String, Object> row, JobDefinition job, Optional<Instant> lastSuccess, Instant now) {
        Optional<Duration> bound = job.freshnessBound(dev.punctual.infra.Stages.configuredFreshness(stage.stageName()));
        row.put("last_success", lastSuccess.map(Instant::toString).orElse(null));
        row.put("fresh_within", bound.map(Duration::toString).orElse(null));
        row.put(
                "stale",
                bound.isEmpty() || lastSuccess.isEmpty()
                        ? null
                        : Duration.between(lastSuccess.get(), now).compareTo(bound.get()) > 0);
    }

    /** The LAST SUCCESS column: {@code 3h 2m ago (fresh within 1d 2h)}, {@code STALE} when it is not. */
    private static String lastSuccessColumn(Map<String, Object> row, Instant now) {
        Object last = row.get("last_success");
        Object bound = row.get("fresh_within");
        if (last == null && bound == null) {
            return "-";
        }
        String when = last == null ? "never" : RelativeTime.from(now, Instant.parse((String) last));
        String within =
                bound == null ? "" : " (fresh within " + RelativeTime.readable(Duration.parse((String) bound)) + ")";
        return (Boolean.TRUE.equals(row.get("stale")) ? "STALE: " : "") + when + within;
    }

    /**
     * After the table: each job's skips ahead, with who, why and whether a delivery met it yet; how to see
     * one entity of each per-entity job shown without one.
     */
    @SuppressWarnings("unchecked")
    private String notes(List<Subject> subjects, List<Map<String, Object>> rows) {
        StringBuilder notes = new StringBuilder();
        for (Map<String, Object> r : rows) {
            for (Map<String, Object> skip : (List<Map<String, Object>>) r.get("skips")) {
                boolean planned = "planned".equals(skip.get("state"));
                notes.append(System.lineSeparator())
                        .append(skip.get("job"))
                        .append(" at ")
                        .append(skip.get("at"))
                        .append(": skipped by ")
                        .append(skip.get("by"))
                        .append(" at ")
                        .append(skip.get("set_at"))
                        .append(": ")
                        .append(skip.get("reason"))
                        .append(
                                planned
                                        ? " (planned; punctual unskip undoes it)"
                                        : " (taken effect at " + skip.get("acted_at") + ")");
            }
        }
        for (Map<String, Object> r : rows) {
            for (Map<String, Object> approval : (List<Map<String, Object>>) r.getOrDefault("approvals", List.of())) {
                notes.append(System.lineSeparator())
                        .append(approval.get("job"))
                        .append(" at ")
                        .append(approval.get("at"))
                        .append(": approved by ")
                        .append(approval.get("by"))
                        .append(" at ")
                        .append(approval.get("approved_at"))
                        .append(", preview: ")
                        .append(approval.get("preview"))
                        .append(" (pending: its next claim runs it)");
            }
        }
        for (Map<String, Object> r : rows) {
            if (r.get("long") instanceof Map<?, ?> longRun) {
                notes.append(System.lineSeparator())
                        .append(LongStatus.line(
                                (String) r.getOrDefault("ledger_id", r.get("job")), (Map<String, Object>) longRun));
            }
        }
        for (Map<String, Object> r : rows) {
            // One job asked for: its last success in words; all jobs: only the stale ones, named.
            boolean stale = Boolean.TRUE.equals(r.get("stale"));
            if ((subjects.size() == 1 && r.get("fresh_within") != null) || stale) {
                notes.append(System.lineSeparator())
                        .append(r.getOrDefault("ledger_id", r.get("job")))
                        .append(": last success ")
                        .append(lastSuccessColumn(r, clock.instant()).replaceFirst("^STALE: ", ""))
                        .append(stale ? ": STALE, no success within its bound (docs/runbook.md#stale)" : "");
            }
        }
        for (Subject s : subjects) {
            if (s.wholeGroup()) {
                notes.append(System.lineSeparator())
                        .append(s.job().id())
                        .append(" runs per entity: punctual status ")
                        .append(s.job().id())
                        .append(" --entity ENTITY shows one entity's cursor, lease and runs (punctual schedules list ")
                        .append(s.job().id())
                        .append(" lists the entities)");
            }
        }
        return notes.toString();
    }

    /** How long the oldest occurrence not yet done has been due; zero when the job is up to date. */
    private static Duration lag(OccurrenceCalculator calculator, Optional<Instant> cursor, Instant now) {
        Optional<Instant> pending = cursor.isPresent() ? calculator.next(cursor.get()) : Optional.empty();
        return pending.filter(p -> !p.isAfter(now))
                .map(p -> Duration.between(p, now))
                .orElse(Duration.ZERO);
    }

    private static String lastColumn(Map<String, Object> row, Map<String, Object> last, Instant now) {
        if (last != null) {
            return last.get("status") + lastWhen(last, now) + earlier(last);
        }
        if (Boolean.TRUE.equals(row.get("per_entity")) && row.get("entity") == null) {
            return "per entity (see below)";
        }
        return Boolean.TRUE.equals(row.get("never_ran")) ? "never ran (first: NEXT)" : "-";
    }

    private static Map<String, Object> last(RunRecord r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("occurrence", r.key().scheduledTime().toString());
        m.put("status", r.status().name());
        m.put("attempts", r.attempts());
        m.put("trigger", r.trigger() == null ? null : r.trigger().name());
        m.put("finished_at", r.finishedAt() == null ? null : r.finishedAt().toString());
        m.put("reason", r.reason());
        m.put("error", r.errorSummary());
        m.put("earlier", r.earlier().stream().map(StatusCommand::attempt).toList());
        return m;
    }

    /** An earlier attempt the run item kept (abandoned, fenced, failed, or a success a forced run repeated). */
    private static Map<String, Object> attempt(Attempt a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("attempt", a.attempt());
        m.put("status", a.status().name());
        m.put("fence", a.fence());
        m.put("started_at", a.startedAt() == null ? null : a.startedAt().toString());
        m.put("finished_at", a.finishedAt() == null ? null : a.finishedAt().toString());
        m.put("reason", a.reason());
        return m;
    }

    /**
     * A group of capacity N's slots (decision 0051): how many there are, how many are held now, and each
     * held one's lease as {@link #lease} shows it (its {@code group} is the slot's item id).
     */
    static Map<String, Object> slots(List<LockState> slots, int capacity, Instant now) {
        List<Map<String, Object>> held = slots.stream()
                .map(s -> lease(s, now))
                .filter(java.util.Objects::nonNull)
                .toList();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("capacity", capacity);
        m.put("in_use", held.size());
        m.put("held", held);
        return m;
    }

    /** The LEASE column of a group of capacity N: {@code 2 of 3 slots: JOB by a until .., JOB by b until ..}. */
    @SuppressWarnings("unchecked")
    static String slotsColumn(Map<String, Object> slots) {
        List<Map<String, Object>> held = (List<Map<String, Object>>) slots.get("held");
        String head = slots.get("in_use") + " of " + slots.get("capacity") + " slots";
        if (held.isEmpty()) {
            return head + " in use";
        }
        return head + ": "
                + String.join(
                        ", ",
                        held.stream()
                                .map(l -> l.get("kind") + " by " + l.get("holder") + " until " + l.get("until"))
                                .toList());
    }

    /** The group's lease while one is held: who (the holder and its token's start), until when, the fence. */
    private static Map<String, Object> lease(LockState lock, Instant now) {
        if (!lock.leaseHeldAt(now)) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("group", lock.id());
        m.put("kind", lock.leaseKind() == null ? null : lock.leaseKind().name());
        m.put("holder", VisibleText.escaped(lock.leaseHolder()));
        m.put("owner", lock.leaseOwner().length() > 8 ? lock.leaseOwner().substring(0, 8) + "…" : lock.leaseOwner());
        m.put("until", lock.leaseUntil().toString());
        m.put("fence", lock.fence());
        return m;
    }

    /** An operator's skip as {@code skip} prints it; who and why escaped, in JSON too, as a hold's are. */
    private static Map<String, Object> skip(RunRecord record) {
        Map<String, Object> m = SkipCommand.Base.described(record);
        m.computeIfPresent("by", (k, v) -> VisibleText.escaped((String) v));
        m.computeIfPresent("reason", (k, v) -> VisibleText.escaped((String) v));
        return m;
    }

    /**
     * A hold: who set it, why, until when; for a hold taken while a command runs ({@code maintenance
     * hold}) also the command and since when, its {@code until} being the end of its last renewal.
     */
    private static Map<String, Object> hold(MaintenanceHold h, LockState group) {
        // Escaped in JSON too: a script that prints the field must not print a stored escape sequence.
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reason", h.shownReason());
        m.put("set_by", h.shownSetBy());
        m.put("until", h.until().toString());
        h.shownCommand().ifPresent(command -> {
            m.put("command", command);
            m.put(
                    "since",
                    group.leaseAcquiredAt() == null
                            ? null
                            : group.leaseAcquiredAt().toString());
        });
        return m;
    }

    /** The MAINTENANCE column: the reason and its end; a command's hold, its command and renewal. */
    private static String holdColumn(Map<String, Object> hold) {
        if (hold == null) {
            return "-";
        }
        if (hold.containsKey("command")) {
            return hold.get("reason") + " (" + hold.get("set_by") + " running " + hold.get("command") + " since "
                    + hold.get("since") + ", renewed until " + hold.get("until") + ")";
        }
        return hold.get("reason") + " (until " + hold.get("until") + ")";
    }

    @Override
    public String[] header() {
        return HEADER.clone();
    }

    @Override
    public List<String> narrow() {
        return NARROW;
    }

    @Override
    public OutputOptions output() {
        return output;
    }

    /** The HELD column: what holds the job now, in a word: maintenance, or its lease's kind; "-" for nothing. */
    private static String held(Map<String, Object> hold, Map<String, Object> lease, Object paused) {
        if (hold != null) {
            return "maintenance";
        }
        if (paused != null) {
            return "paused";
        }
        return lease == null ? "-" : String.valueOf(lease.get("kind")).toLowerCase(java.util.Locale.ROOT);
    }

    @SuppressWarnings("unchecked")
    private static List<String[]> table(List<Map<String, Object>> rows, Instant now) {
        List<String[]> lines = new ArrayList<>();
        lines.add(HEADER.clone());
        for (Map<String, Object> r : rows) {
            Map<String, Object> last = (Map<String, Object>) r.get("last");
            List<Map<String, String>> next = (List<Map<String, String>>) r.get("next");
            Map<String, Object> hold = (Map<String, Object>) r.get("maintenance");
            Map<String, Object> lease = (Map<String, Object>) r.get("lease");
            java.util.Set<Object> skipped = ((List<Map<String, Object>>) r.get("skips"))
                    .stream().map(k -> k.get("at")).collect(java.util.stream.Collectors.toSet());
            int runs = Math.max(1, next.size());
            for (int i = 0; i < runs; i++) {
                boolean first = i == 0;
                Map<String, String> run = i < next.size() ? next.get(i) : Map.of();
                lines.add(new String[] {
                    first ? (String) r.getOrDefault("ledger_id", r.get("job")) : "",
                    first ? (String) r.get("lock_group") : "",
                    first ? orDash(r.get("cursor")) : "",
                    first ? lastColumn(r, last, now) + (Boolean.TRUE.equals(r.get("stale")) ? " STALE" : "") : "",
                    first
                            ? (r.get("lag_ms") == null
                                    ? "-"
                                    : RelativeTime.readable(Duration.ofMillis((Long) r.get("lag_ms"))))
                            : "",
                    run.getOrDefault("local", "-") + (skipped.contains(run.get("utc")) ? " SKIPPED" : ""),
                    run.getOrDefault("in", "-"),
                    first ? held(hold, lease, r.get("paused")) : "",
                    first ? holdColumn(hold) : "",
                    first ? leaseColumn(r, lease) : "",
                    first ? lastSuccessColumn(r, now) : ""
                });
            }
        }
        return lines;
    }

    /** The LEASE column: the group's lease; for a group of capacity N, its slots in use and their holders. */
    @SuppressWarnings("unchecked")
    private static String leaseColumn(Map<String, Object> r, Map<String, Object> lease) {
        if (r.get("slots") != null) {
            return slotsColumn((Map<String, Object>) r.get("slots"));
        }
        return lease == null ? "-" : lease.get("kind") + " by " + lease.get("holder") + " until " + lease.get("until");
    }

    /** The attempts the run item kept before its last one, as {@code after ABANDONED#1, FAILED#2}. */
    @SuppressWarnings("unchecked")
    static String earlier(Map<String, Object> last) {
        List<Map<String, Object>> attempts = (List<Map<String, Object>>) last.getOrDefault("earlier", List.of());
        if (attempts.isEmpty()) {
            return "";
        }
        List<String> named = attempts.stream()
                .map(a -> a.get("status") + "#" + a.get("attempt"))
                .toList();
        return " after " + String.join(", ", named);
    }

    private static String lastWhen(Map<String, Object> last, Instant now) {
        Object finished = last.get("finished_at");
        return finished == null ? "" : " (" + RelativeTime.from(now, Instant.parse((String) finished)) + ")";
    }

    private static String orDash(Object value) {
        return value == null ? "-" : value.toString();
    }
}
