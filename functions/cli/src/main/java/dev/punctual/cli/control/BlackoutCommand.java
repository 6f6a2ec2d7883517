package dev.punctual.cli.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.InstantArgument;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorReason;
import dev.punctual.cli.input.OperatorWho;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.Table;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.cli.stage.StageOptions;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.OperatorSkip;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.SkipPlan;
import dev.punctual.ledger.Unskip;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code blackout add|list|remove} (issue 22, 3; decision 0034, "A window set at runtime"): an operator's
 * one-off window, set while the stage runs, for one job, one lock group or every job. It is written as
 * one operator's skip per occurrence inside it (decision 0033), each saying which blackout it belongs to,
 * so the ledger's conditional writes make it exactly-once (an occurrence skipped cannot start, one started
 * is not skipped) and a delivery pays nothing to read it. Recurring windows are declared in code.
 */
@Command(
        name = "blackout",
        mixinStandardHelpOptions = true,
        description = "Adds, lists and removes one-off blackout windows set while the stage runs: every occurrence"
                + " of a job, a lock group or every job inside one is skipped with the window's reason.")
public final class BlackoutCommand implements Runnable {

    /** The longest window set at runtime: a longer stop is a job switched off, or a window in code. */
    static final Duration LONGEST = Duration.ofDays(7);

    /** The most occurrences one blackout skips (each is one ledger transaction, and rides on its job's lock item). */
    static final int MOST_OCCURRENCES = 200;

    /** Every skip of a blackout says so first: {@code blackout bo-1a2b3c4d: reason}. */
    static final String PREFIX = "blackout ";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static CommandLine commandLine(CliContext context, Function<String, JobCatalog> catalogs) {
        CommandLine line = new CommandLine(new BlackoutCommand());
        line.addSubcommand("add", new Add(context, catalogs));
        line.addSubcommand("list", new ListBlackouts(context, catalogs));
        line.addSubcommand("remove", new Remove(context, catalogs));
        return line;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "COMMAND: missing; accepted: add, list, remove (blackout --help)");
    }

    /** What the three share: the stage, the output, the catalog. */
    abstract static class Base implements Callable<Integer> {
        final CliContext context;
        final Function<String, JobCatalog> catalogs;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        StageOptions stage;

        @Mixin
        OutputOptions output;

        Base(CliContext context, Function<String, JobCatalog> catalogs) {
            this.context = context;
            this.catalogs = catalogs;
        }

        /**
         * The team's jobs with one schedule, which a blackout may cover: not per-entity jobs, and not the
         * runtime's built-in jobs (the watchdog keeps watching through a blackout, as through one in code).
         */
        static List<JobDefinition> scheduled(JobCatalog catalog) {
            return catalog.jobs().stream()
                    .filter(j -> !j.isPerEntity())
                    .filter(j -> !j.id().equals(dev.punctual.runtime.MissedRunWatchdog.ID))
                    .toList();
        }

        /** The skips ahead that belong to blackouts, by blackout id, oldest first within each. */
        static Map<String, List<RunRecord>> blackouts(RunLedger ledger, JobCatalog catalog) {
            Map<String, List<RunRecord>> byId = new TreeMap<>();
            for (JobDefinition job : scheduled(catalog)) {
                for (RunRecord record : ledger.skipsAhead(job.id())) {
                    record.skip()
                            .flatMap(s -> idOf(s.why()))
                            .ifPresent(id -> byId.computeIfAbsent(id, k -> new ArrayList<>())
                                    .add(record));
                }
            }
            return byId;
        }
    }

    /** A blackout's skip reason, exactly as {@code blackout add} writes it: the id, then the operator's reason. */
    private static final java.util.regex.Pattern WHY =
            java.util.regex.Pattern.compile("blackout (bo-[0-9a-f]{8}): (.+)", java.util.regex.Pattern.DOTALL);

    /** The blackout a skip's reason names, if it was set by {@code blackout add}. */
    static java.util.Optional<String> idOf(String why) {
        java.util.regex.Matcher m = why == null ? null : WHY.matcher(why);
        return m != null && m.matches() ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
    }

    /** The operator's reason of a blackout's skip (the part after its id). */
    static String reasonOf(String why) {
        java.util.regex.Matcher m = WHY.matcher(why);
        return m.matches() ? m.group(2) : why;
    }

    /** A stable id of the window: the same scope, ends and reason give the same id. */
    static String id(String scope, Instant from, Instant to, String reason) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((scope + "\n" + from + "\n" + to + "\n" + reason).getBytes(StandardCharsets.UTF_8));
            return "bo-" + HexFormat.of().formatHex(digest, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java SE runtime provides SHA-256", e);
        }
    }

    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            resourceBundle = "dev.punctual.cli.control.OperatorTextHelp",
            description = "Sets a one-off window [--from, --to) in which the job, the lock group or every job does"
                    + " not run: each occurrence inside is skipped ahead of time with the window's reason, and"
                    + " recorded as SKIP OPERATOR_SKIPPED when delivered (not counted as missed). At most 7 days"
                    + " and 200 occurrences; an occurrence already started is left to finish.")
    static final class Add extends Base {

        @Option(names = "--job", paramLabel = "JOB", description = "One job (exclusive with --group and --all)")
        String job;

        @Option(
                names = "--group",
                paramLabel = "GROUP",
                description = "Every job of a lock group (exclusive with --job and --all)")
        String group;

        @Option(names = "--all", description = "Every job with a schedule of its own (not per-entity jobs)")
        boolean all;

        @Option(
                names = "--from",
                required = true,
                paramLabel = "TIME",
                description = "The window's start, an instant with its offset (inclusive)")
        String from;

        @Option(
                names = "--to",
                required = true,
                paramLabel = "TIME",
                description = "The window's end, an instant with its offset (exclusive: an occurrence at it runs)")
        String to;

        @Mixin
        OperatorReason.Required reason;

        @Mixin
        OperatorWho by;

        Add(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        public Integer call() throws JsonProcessingException {
            if (reason.typed().isBlank()) {
                throw new OperatorInputException(
                        "--reason: empty; accepted: a reason on one line, e.g. --reason 'db migration'");
            }
            String typed = reason.checked();
            String who = by.who();
            Instant start = InstantArgument.parse(spec.commandLine(), "--from", from);
            Instant end = InstantArgument.parse(spec.commandLine(), "--to", to);
            Instant now = context.clock().instant();
            if (!end.isAfter(start)) {
                throw new OperatorInputException("--to: " + end + " is not after --from " + start
                        + "; accepted: a later instant (the window is [--from, --to))");
            }
            if (Duration.between(start, end).compareTo(LONGEST) > 0) {
                throw new OperatorInputException("--to: the window " + start + " .. " + end + " is longer than "
                        + LONGEST.toDays() + " days; accepted: at most " + LONGEST.toDays()
                        + " days (for longer, switch the job's schedule off or declare a window in code)");
            }
            if (!end.isAfter(now)) {
                throw new OperatorInputException(
                        "--to: " + end + " has passed (now " + now + "); accepted: a window that has not ended");
            }
            JobCatalog catalog = catalogs.apply(stage.stageName());
            String scope = scope();
            List<JobDefinition> jobs = jobs(catalog);
            List<RunKey> keys = new ArrayList<>();
            for (JobDefinition definition : jobs) {
                // The job's own occurrences: a calendar's or code blackout's exclusions are not due anyway.
                // One more than the bound is enough to know the window holds too many.
                for (dev.punctual.time.TimelineEntry entry :
                        definition.occurrences().timeline(start, end, MOST_OCCURRENCES + 1 - keys.size())) {
                    if (entry instanceof dev.punctual.time.Occurrence occurrence) {
                        keys.add(new RunKey(definition.id(), occurrence.instant()));
                    }
                }
                if (keys.size() > MOST_OCCURRENCES) {
                    break;
                }
            }
            if (keys.size() > MOST_OCCURRENCES) {
                throw new OperatorInputException("--to: the window holds more than " + MOST_OCCURRENCES
                        + " occurrences of " + scope + "; accepted: a shorter window or fewer jobs (or punctual"
                        + " maintenance on for a stop of every job)");
            }
            String id = id(scope, start, end, typed);
            String why = PREFIX + id + ": " + typed;
            try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
                RunLedger ledger = session.runtime.services().ledger();
                return add(ledger, id, scope, start, end, keys, who, why);
            }
        }

        private int add(
                RunLedger ledger,
                String id,
                String scope,
                Instant start,
                Instant end,
                List<RunKey> keys,
                String who,
                String why)
                throws JsonProcessingException {
            List<RunKey> planned = new ArrayList<>();
            List<String> notes = new ArrayList<>();
            for (RunKey key : keys) {
                SkipPlan plan;
                try {
                    plan = ledger.skip(key, who, why);
                } catch (RuntimeException e) {
                    // A ledger fault part-way (throttled, not settled): nothing half-set is left behind.
                    throw new dev.punctual.PunctualException("blackout " + id + " was not set: the skip of "
                            + key.jobId() + " at " + key.scheduledTime() + " failed (" + e.getMessage() + "); "
                            + takeBack(ledger, planned) + "; run blackout add again");
                }
                switch (plan) {
                    case SkipPlan.Planned p -> planned.add(key);
                    case SkipPlan.AlreadySkipped already -> {
                        OperatorSkip skip = already.record().skip().orElseThrow();
                        notes.add(key.jobId() + " at " + key.scheduledTime() + " already skipped by " + skip.by() + ": "
                                + skip.why());
                    }
                    case SkipPlan.AlreadyStarted started ->
                        notes.add(key.jobId() + " at " + key.scheduledTime() + " had already started; left to"
                                + " finish");
                    case SkipPlan.BehindCursor behind -> {
                        // Behind the cursor nothing runs again: nothing to skip.
                    }
                    case SkipPlan.TooMany many -> {
                        // Nothing half-set: the skips this command planned are taken back.
                        throw new OperatorInputException("--from: " + key.jobId() + " already has " + many.limit()
                                + " skips ahead of its cursor, the most it may carry, so blackout " + id
                                + " was not set (" + takeBack(ledger, planned) + ");"
                                + " accepted: a shorter window, or punctual maintenance on for a longer stop");
                    }
                }
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("blackout", id);
            out.put("scope", scope);
            out.put("from", start.toString());
            out.put("to", end.toString());
            out.put("by", who);
            out.put("reason", reasonOf(why));
            out.put("skipped", planned.size());
            out.put("notes", notes);
            StringBuilder text = new StringBuilder("blackout " + id + " set for " + scope + ", " + start + " .. " + end
                    + ": " + planned.size() + " occurrence(s) skipped, by " + who);
            notes.forEach(n -> text.append("\n  ").append(n));
            text.append("\nremove it before it starts: punctual blackout remove ")
                    .append(id)
                    .append(stage.reachedWith());
            output.print(out, text.toString());
            return 0;
        }

        /**
         * Unskips what this command planned, each on its own, and says what became of them: removed, or
         * met by a delivery meanwhile (it stands as that occurrence's record), or not removed (a fault:
         * {@code blackout remove} takes it back later).
         */
        private static String takeBack(RunLedger ledger, List<RunKey> planned) {
            int removed = 0;
            int stood = 0;
            int failed = 0;
            for (RunKey key : planned) {
                try {
                    if (ledger.unskip(key) instanceof Unskip.Removed) {
                        removed++;
                    } else {
                        stood++;
                    }
                } catch (RuntimeException e) {
                    failed++;
                }
            }
            return "of the " + planned.size() + " skips it had planned, " + removed + " were removed"
                    + (stood == 0 ? "" : ", " + stood + " had already been met by a delivery")
                    + (failed == 0
                            ? ""
                            : ", " + failed + " could not be removed now (punctual blackout list, then"
                                    + " blackout remove)");
        }

        private String scope() {
            int given = (job != null ? 1 : 0) + (group != null ? 1 : 0) + (all ? 1 : 0);
            if (given != 1) {
                throw new OperatorInputException("--job, --group, --all: " + (given == 0 ? "none" : "more than one")
                        + " given; accepted: exactly one (a job, a lock group, or every job)");
            }
            return job != null ? "job " + job : group != null ? "group " + group : "every job";
        }

        private List<JobDefinition> jobs(JobCatalog catalog) {
            if (job != null) {
                JobDefinition definition = Remote.known(catalog, job);
                if (definition.isPerEntity()) {
                    throw new OperatorInputException("--job: '" + job + "' runs per entity; accepted: a job with"
                            + " a schedule of its own (skip an entity's occurrence with punctual skip --entity)");
                }
                return List.of(definition);
            }
            List<JobDefinition> scheduled = scheduled(catalog);
            if (all) {
                return scheduled;
            }
            List<JobDefinition> members =
                    scheduled.stream().filter(j -> j.lockGroup().equals(group)).toList();
            if (members.isEmpty()) {
                throw new OperatorInputException("--group: '" + group + "' is not a lock group of this catalog's"
                        + " scheduled jobs; accepted: one of "
                        + scheduled.stream()
                                .map(JobDefinition::lockGroup)
                                .distinct()
                                .sorted()
                                .toList());
            }
            return members;
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "Lists the blackouts set with blackout add that still have skips ahead: id, jobs,"
                    + " occurrences planned and taken effect, reason, who.")
    static final class ListBlackouts extends Base {

        ListBlackouts(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Integer call() throws JsonProcessingException {
            JobCatalog catalog = catalogs.apply(stage.stageName());
            try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
                Map<String, List<RunRecord>> byId =
                        blackouts(session.runtime.services().ledger(), catalog);
                List<Map<String, Object>> rows = new ArrayList<>();
                List<String[]> table = new ArrayList<>();
                table.add(new String[] {"BLACKOUT", "JOBS", "FIRST", "LAST", "PLANNED", "TOOK EFFECT", "BY", "REASON"});
                byId.forEach((id, records) -> {
                    Map<String, Object> row = row(id, records);
                    rows.add(row);
                    table.add(new String[] {
                        id,
                        String.join(",", (List<String>) row.get("jobs")),
                        (String) row.get("first"),
                        (String) row.get("last"),
                        String.valueOf(row.get("planned")),
                        String.valueOf(row.get("acted")),
                        (String) row.get("by"),
                        (String) row.get("reason")
                    });
                });
                output.print(
                        Map.of("blackouts", rows),
                        rows.isEmpty() ? "no blackouts set at runtime" : Table.render(table));
                return 0;
            }
        }

        private static Map<String, Object> row(String id, List<RunRecord> records) {
            List<Instant> times =
                    records.stream().map(r -> r.key().scheduledTime()).sorted().toList();
            OperatorSkip first = records.get(0).skip().orElseThrow();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("blackout", id);
            row.put(
                    "jobs",
                    records.stream()
                            .map(r -> r.key().jobId())
                            .distinct()
                            .sorted()
                            .toList());
            row.put("first", times.get(0).toString());
            row.put("last", times.get(times.size() - 1).toString());
            row.put(
                    "planned",
                    records.stream()
                            .filter(r -> r.skip().orElseThrow().planned())
                            .count());
            row.put(
                    "acted",
                    records.stream()
                            .filter(r -> !r.skip().orElseThrow().planned())
                            .count());
            row.put("by", first.by());
            row.put("reason", reasonOf(first.why()));
            return row;
        }
    }

    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            description = "Removes a blackout's skips that no delivery has met yet: those occurrences run as"
                    + " scheduled (or by catch-up); the ones already skipped stay as they were recorded.")
    static final class Remove extends Base {

        @Parameters(index = "0", paramLabel = "BLACKOUT", description = "The id blackout add printed (bo-...)")
        String id;

        Remove(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        public Integer call() throws JsonProcessingException {
            JobCatalog catalog = catalogs.apply(stage.stageName());
            try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
                RunLedger ledger = session.runtime.services().ledger();
                Map<String, List<RunRecord>> byId = blackouts(ledger, catalog);
                List<RunRecord> records = byId.get(id);
                if (records == null) {
                    throw new OperatorInputException("BLACKOUT: '" + id + "' has no skips ahead; accepted: one of "
                            + byId.keySet() + " (punctual blackout list)");
                }
                int removed = 0;
                int stood = 0;
                for (RunRecord record : records) {
                    if (ledger.unskip(record.key()) instanceof Unskip.Removed) {
                        removed++;
                    } else {
                        // Met by a delivery since it was listed, or already: it stands as that occurrence's record.
                        stood++;
                    }
                }
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("blackout", id);
                out.put("removed", removed);
                out.put("took_effect", stood);
                output.print(
                        out,
                        "blackout " + id + " removed: " + removed + " occurrence(s) run again when delivered"
                                + (stood == 0 ? "" : "; " + stood + " had already been skipped and stay so"));
                return 0;
            }
        }
    }
}
