package dev.punctual.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.Attempt;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.observability.VisibleText;
import dev.punctual.time.OccurrenceCalculator;
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
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code status [JOB]}: per job its cursor, last outcome, lag, next occurrences and maintenance. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = "Shows each job's cursor, last outcome, lag, next occurrences and maintenance.")
final class StatusCommand implements Callable<Integer> {

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

    StatusCommand(CliContext context) {
        this.context = context;
        this.clock = context.clock();
    }

    @Override
    public Integer call() throws JsonProcessingException {
        if (next < 0 || next > 100) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--next: '" + next + "' is out of range; accepted: 0-100");
        }
        Duration interval =
                Repeating.interval(spec.commandLine(), every, watch, "--watch", DEFAULT_EVERY, Duration.ofSeconds(1));
        PrintWriter out = spec.commandLine().getOut();
        boolean json = output.isJson();
        try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
            List<JobDefinition> jobs = job == null ? session.catalog.jobs() : List.of(known(session));
            while (true) {
                Instant now = clock.instant();
                List<Map<String, Object>> rows = new ArrayList<>();
                for (JobDefinition definition : jobs) {
                    rows.add(row(definition, session.runtime.services().ledger(), now));
                }
                Map<String, Object> report = new LinkedHashMap<>();
                report.put("stage", stage.stageName());
                report.put("now", now.toString());
                report.put("jobs", rows);
                if (watch && !json) {
                    out.println("stage " + stage.stageName() + " at " + now + " (every " + interval.toSeconds()
                            + "s; Ctrl-C stops)");
                }
                out.println(json ? Json.mapper().writeValueAsString(report) : table(rows, now));
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

    /** How often {@code --watch} shows the status again unless {@code --every} says. */
    static final Duration DEFAULT_EVERY = Duration.ofSeconds(10);

    private JobDefinition known(OperatorSession session) {
        return Remote.known(session.catalog, job);
    }

    private Map<String, Object> row(JobDefinition job, RunLedger ledger, Instant now) {
        OccurrenceCalculator calculator = OccurrenceCalculator.of(job.schedule());
        Optional<Instant> cursor = ledger.cursor(job.id());
        Optional<Instant> due = calculator.previous(now.plusMillis(1));
        Optional<RunRecord> last = due.flatMap(d -> ledger.run(new RunKey(job.id(), d)))
                .or(() -> cursor.flatMap(c -> ledger.run(new RunKey(job.id(), c))));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("job", job.id());
        // The same keys as jobs and plan: schedule as written, deployed as EventBridge is given it.
        row.put("schedule", job.schedule().expression().source());
        row.put("deployed", job.schedule().deployment().expression());
        row.put("zone", job.schedule().zone().getId());
        row.put("lock_group", job.lockGroup());
        row.put("cursor", cursor.map(Instant::toString).orElse(null));
        row.put("last", last.map(StatusCommand::last).orElse(null));
        // A job with no cursor and no run has never run here: no lag to speak of, and "0s" would read as
        // healthy; its first run is the first of "next".
        boolean neverRan = cursor.isEmpty() && last.isEmpty();
        row.put("never_ran", neverRan);
        row.put("lag_ms", neverRan ? null : lag(calculator, cursor, now).toMillis());
        row.put("next", NextRuns.after(job.schedule(), now, next));
        row.put(
                "maintenance",
                ledger.maintenance(job.lockGroup()).map(StatusCommand::hold).orElse(null));
        row.put("lease", lease(ledger.lock(job.lockGroup()), now));
        return row;
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

    /** {@code 2d 3h}, {@code 2h 46m}, {@code 5m 12s}, {@code 0s}: the two largest units, for people. */
    static String readable(Duration d) {
        long s = d.toSeconds();
        long days = s / 86_400;
        long hours = s % 86_400 / 3_600;
        long minutes = s % 3_600 / 60;
        long seconds = s % 60;
        if (days > 0) {
            return days + "d " + hours + "h";
        }
        if (hours > 0) {
            return hours + "h " + minutes + "m";
        }
        return minutes > 0 ? minutes + "m " + seconds + "s" : seconds + "s";
    }

    private static Map<String, Object> hold(MaintenanceHold h) {
        // Escaped in JSON too: a script that prints the field must not print a stored escape sequence.
        return Map.of(
                "reason",
                h.shownReason(),
                "set_by",
                h.shownSetBy(),
                "until",
                h.until().toString());
    }

    @SuppressWarnings("unchecked")
    private static String table(List<Map<String, Object>> rows, Instant now) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {
            "JOB", "LOCK GROUP", "CURSOR (UTC)", "LAST", "LAG", "NEXT (LOCAL)", "IN", "MAINTENANCE", "LEASE"
        });
        for (Map<String, Object> r : rows) {
            Map<String, Object> last = (Map<String, Object>) r.get("last");
            List<Map<String, String>> next = (List<Map<String, String>>) r.get("next");
            Map<String, Object> hold = (Map<String, Object>) r.get("maintenance");
            Map<String, Object> lease = (Map<String, Object>) r.get("lease");
            int runs = Math.max(1, next.size());
            for (int i = 0; i < runs; i++) {
                boolean first = i == 0;
                Map<String, String> run = i < next.size() ? next.get(i) : Map.of();
                lines.add(new String[] {
                    first ? (String) r.get("job") : "",
                    first ? (String) r.get("lock_group") : "",
                    first ? orDash(r.get("cursor")) : "",
                    first ? lastColumn(r, last, now) : "",
                    first ? (r.get("lag_ms") == null ? "-" : readable(Duration.ofMillis((Long) r.get("lag_ms")))) : "",
                    run.getOrDefault("local", "-"),
                    run.getOrDefault("in", "-"),
                    first ? (hold == null ? "-" : hold.get("reason") + " (until " + hold.get("until") + ")") : "",
                    first
                            ? (lease == null
                                    ? "-"
                                    : lease.get("kind") + " by " + lease.get("holder") + " until " + lease.get("until"))
                            : ""
                });
            }
        }
        return Table.render(lines);
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
