package dev.punctual.cli.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.InstantArgument;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorReason;
import dev.punctual.cli.input.OperatorWho;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.schedules.EntityDelivery;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.cli.stage.StageOptions;
import dev.punctual.entity.EntityIds;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.PauseMark;
import dev.punctual.ledger.PauseOutcome;
import dev.punctual.ledger.ResumeChoice;
import dev.punctual.ledger.ResumeOutcome;
import dev.punctual.ledger.RunLedger;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
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
 * {@code pause JOB|--group G [--entity E] --reason TEXT [--until T --then catch-up|skip]} and {@code resume
 * JOB|--group G [--entity E] --catch-up|--skip-paused} (issue 38, 1; decision 0040): a mark on the lock
 * item of what is paused, which every claim meets in the write it already sends. Every option is checked
 * before the first request; the operator's writes name only the mark (decision 0037).
 */
public final class PauseCommand {

    private PauseCommand() {}

    /** What both commands share: the stage, and what is paused (a job, a lock group, or an entity). */
    abstract static class Base implements Callable<Integer> {

        final CliContext context;
        final Clock clock;
        final Function<String, JobCatalog> catalogs;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        StageOptions stage;

        @Mixin
        OutputOptions output;

        @Parameters(
                index = "0",
                arity = "0..1",
                paramLabel = "JOB",
                description = "The job (its own lock item; every entity of a per-entity job)")
        String job;

        @Option(
                names = "--group",
                paramLabel = "GROUP",
                description = "A lock group shared by jobs of the catalog instead of a job: every member is paused")
        String group;

        @Option(
                names = "--entity",
                paramLabel = "ENTITY",
                description = "For a per-entity job: only this entity (refused for any other job)")
        String entityId;

        Base(CliContext context, Function<String, JobCatalog> catalogs) {
            this.context = context;
            this.clock = context.clock();
            this.catalogs = catalogs;
        }

        /** The lock item's id, checked against the CLI's catalog before anything connects. */
        String lockId(JobCatalog catalog) {
            if ((job == null) == (group == null)) {
                throw new OperatorInputException("JOB, --group: " + (job == null ? "neither given" : "both given")
                        + "; accepted: a job (punctual pause JOB) or a lock group (punctual pause --group GROUP)");
            }
            if (group != null) {
                if (entityId != null) {
                    throw new OperatorInputException(
                            "--entity: refused with --group; accepted: --entity with a" + " per-entity JOB");
                }
                boolean known =
                        catalog.jobs().stream().anyMatch(d -> d.lockGroup().equals(group));
                if (!known) {
                    throw new OperatorInputException("--group: '" + group + "' is no job's lock group in the"
                            + " catalog; accepted: one of "
                            + catalog.jobs().stream()
                                    .map(JobDefinition::lockGroup)
                                    .distinct()
                                    .sorted()
                                    .toList());
                }
                return group;
            }
            JobDefinition definition = Remote.known(catalog, job);
            if (definition.isPerEntity()
                    && entityId == null
                    && !definition.lockGroup().equals(job)) {
                // Its entities' claims meet the pause on their group's item, which is not the job's own here.
                throw new OperatorInputException("JOB: per-entity job '" + job + "' shares the lock group '"
                        + definition.lockGroup() + "'; accepted: --entity ENTITY for one entity, or --group "
                        + definition.lockGroup() + " for every member of the group");
            }
            Optional<Map.Entry<JobDefinition, String>> asked =
                    EntityDelivery.asked(catalog, job, Optional.ofNullable(entityId), false);
            return asked.map(e -> EntityIds.ledgerId(job, e.getValue())).orElse(job);
        }

        /** The lock items the mark goes on: a group of capacity N has N slots (decision 0051); else one. */
        int slots(JobCatalog catalog) {
            return group != null ? catalog.groupCapacity(group) : 1;
        }

        /** How the command names what it paused, for its undo hint. */
        String target() {
            return (job != null ? job : "--group " + group)
                    + (entityId == null ? "" : " --entity " + entityId)
                    + stage.reachedWith();
        }
    }

    /** The pause's fields as {@code status}, {@code jobs} and these commands show them (JSON). */
    public static Map<String, Object> described(String id, PauseMark mark) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("paused_by", mark.by());
        out.put("reason", mark.why());
        out.put("since", mark.from().toString());
        out.put("until", mark.until().map(Instant::toString).orElse(null));
        out.put("then", mark.catchUp() ? "catch-up" : "skip");
        return out;
    }

    @Command(
            name = "pause",
            mixinStandardHelpOptions = true,
            resourceBundle = "dev.punctual.cli.control.OperatorTextHelp",
            description = "Pauses a job, a lock group or one entity, with who and why: every delivery is recorded"
                    + " as a PAUSED skip (not missed, not paged) until resumed or --until; a run already started"
                    + " runs to its end.")
    public static final class Pause extends Base {

        @Mixin
        OperatorReason.Required reason;

        @Mixin
        OperatorWho by;

        @Option(
                names = "--until",
                paramLabel = "TIME",
                description = "When the pause ends by itself, an instant with its offset (default: until resumed);"
                        + " needs --then")
        String until;

        @Option(
                names = "--then",
                paramLabel = "catch-up|skip",
                description = "With --until, what happens to the occurrences of the paused span once it ends:"
                        + " catch-up (run as the job's catch-up policy allows) or skip (stay recorded as paused)")
        String then;

        public Pause(CliContext context) {
            this(context, SchedulesCommand::catalogOf);
        }

        public Pause(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        public Integer call() throws JsonProcessingException {
            String why = reason.checked();
            String who = by.who();
            Optional<Instant> end =
                    Optional.ofNullable(until).map(u -> InstantArgument.parse(spec.commandLine(), "--until", u));
            boolean catchUp = thenChoice(end);
            if (end.isPresent() && !end.get().isAfter(clock.instant())) {
                throw new OperatorInputException("--until: " + end.get() + " is not in the future; accepted: an"
                        + " instant after now (" + clock.instant() + ")");
            }
            JobCatalog catalog = catalogs.apply(stage.stageName());
            String id = lockId(catalog);
            try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
                RunLedger ledger = session.runtime.services().ledger();
                PauseOutcome outcome = ledger.pause(id, slots(catalog), who, why, end, catchUp);
                return switch (outcome) {
                    case PauseOutcome.Set set -> {
                        PauseMark mark = set.after().pause();
                        boolean inFlight = set.runInFlight(clock.instant());
                        Map<String, Object> out = described(id, mark);
                        out.put("pause", "set");
                        out.put("run_in_flight", inFlight);
                        output.print(
                                out,
                                id + " " + mark.describe()
                                        + (inFlight ? "\n" + inFlight(set.after()) : "")
                                        + "\nundo: punctual resume " + target() + " --catch-up (or --skip-paused)");
                        yield 0;
                    }
                    case PauseOutcome.AlreadyPaused already ->
                        throw new OperatorInputException("JOB: " + id + " is already "
                                + already.standing().describe()
                                + "; accepted: resume it first (punctual resume " + target()
                                + " --catch-up|--skip-paused) to pause it again");
                };
            }
        }

        /** --then is required with --until and refused without it: the span's fate is chosen up front. */
        private boolean thenChoice(Optional<Instant> end) {
            if (end.isEmpty()) {
                if (then != null) {
                    throw new OperatorInputException("--then: only with --until (a pause until resumed is given"
                            + " its choice by resume --catch-up or --skip-paused); accepted: --until TIME --then"
                            + " catch-up|skip");
                }
                return true;
            }
            if (then == null) {
                throw new OperatorInputException("--then: required with --until; accepted: catch-up (the span's"
                        + " occurrences run as the job's catch-up policy allows once it ends) or skip (they stay"
                        + " recorded as paused)");
            }
            return switch (then) {
                case "catch-up" -> true;
                case "skip" -> false;
                default ->
                    throw new OperatorInputException(
                            "--then: '" + then + "' is not a choice; accepted: catch-up or skip");
            };
        }

        private static String inFlight(LockState after) {
            return "a run is still in flight: " + after.slot().occurrence() + ", held by " + after.leaseHolder()
                    + " until " + after.leaseUntil() + "; it runs to its end, the next delivery is paused";
        }
    }

    @Command(
            name = "resume",
            mixinStandardHelpOptions = true,
            description = "Ends a pause set with punctual pause, saying what happens to the paused span: --catch-up"
                    + " (its occurrences run as the job's catch-up policy allows) or --skip-paused (they stay"
                    + " recorded as paused, never run).")
    public static final class Resume extends Base {

        @Option(names = "--catch-up", description = "The paused span is caught up by the next delivery")
        boolean catchUp;

        @Option(names = "--skip-paused", description = "The paused span stays refused, recorded as PAUSED")
        boolean skipPaused;

        public Resume(CliContext context) {
            this(context, SchedulesCommand::catalogOf);
        }

        public Resume(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        public Integer call() throws JsonProcessingException {
            if (catchUp == skipPaused) {
                throw new OperatorInputException("--catch-up, --skip-paused: " + (catchUp ? "both" : "neither")
                        + " given; accepted: exactly one, --catch-up (the paused span's occurrences run as the job's"
                        + " catch-up policy allows) or --skip-paused (they stay recorded as paused)");
            }
            ResumeChoice choice = catchUp ? ResumeChoice.CATCH_UP : ResumeChoice.SKIP_PAUSED;
            JobCatalog catalog = catalogs.apply(stage.stageName());
            String id = lockId(catalog);
            try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
                ResumeOutcome outcome = session.runtime.services().ledger().resume(id, slots(catalog), choice);
                return switch (outcome) {
                    case ResumeOutcome.Resumed resumed -> {
                        Map<String, Object> out = described(id, resumed.before());
                        out.put("resume", catchUp ? "catch-up" : "skip-paused");
                        resumed.after()
                                .ifPresent(a -> out.put(
                                        "refused_until", a.until().orElseThrow().toString()));
                        output.print(
                                out,
                                "resumed " + id + " (was " + resumed.before().describe() + ")"
                                        + resumed.after()
                                                .map(a -> "; occurrences from " + a.from() + " to "
                                                        + a.until().orElseThrow() + " stay recorded as paused")
                                                .orElse("; the next delivery catches up as the job's policy allows"));
                        yield 0;
                    }
                    case ResumeOutcome.NotPaused none ->
                        throw new OperatorInputException("JOB: " + id + " is not paused; accepted: a job, group or"
                                + " entity paused with punctual pause (punctual status shows it)");
                };
            }
        }
    }
}
