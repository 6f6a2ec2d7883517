package dev.punctual.cli.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.InstantArgument;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorReason;
import dev.punctual.cli.input.OperatorWho;
import dev.punctual.cli.output.OutputOptions;
import dev.punctual.cli.output.RelativeTime;
import dev.punctual.cli.schedules.EntityDelivery;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.cli.stage.StageOptions;
import dev.punctual.entity.EntityIds;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.OperatorSkip;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.SkipPlan;
import dev.punctual.ledger.Unskip;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
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
 * {@code skip JOB --at T --reason TEXT} and {@code unskip JOB --at T} (issue 22, 2; decision 0033): an
 * operator's skip of one occurrence, set ahead of it in the ledger. The ledger's conditional writes make
 * it exactly-once: a skipped occurrence cannot start, a started one cannot be skipped. The time must be an
 * occurrence of the job's (or the entity's) schedule, checked here by the same calculator the function
 * uses, so a skip can never name a time nothing would run at.
 */
public final class SkipCommand {

    private SkipCommand() {}

    /** What both commands share: the stage, the job, the occurrence, the entity. */
    public abstract static class Base implements Callable<Integer> {

        final CliContext context;
        final Clock clock;
        final Function<String, JobCatalog> catalogs;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        StageOptions stage;

        @Mixin
        OutputOptions output;

        @Parameters(index = "0", paramLabel = "JOB", description = "The job whose occurrence it is")
        String job;

        @Option(
                names = "--at",
                required = true,
                paramLabel = "TIME",
                description = "The occurrence, an instant with its offset (e.g. 2027-01-15T09:00:00+09:00): one the"
                        + " job's schedule fires at (punctual plan --job JOB lists them)")
        String at;

        @Option(
                names = "--entity",
                paramLabel = "ENTITY",
                description = "For a per-entity job (required for one, refused for any other): the entity whose"
                        + " occurrence it is; its schedule in the stage's entity group gives the zone and expression")
        String entityId;

        public Base(CliContext context, Function<String, JobCatalog> catalogs) {
            this.context = context;
            this.clock = context.clock();
            this.catalogs = catalogs;
        }

        /** The occurrence's key in the ledger, checked before it is written: a known job, a time it fires at. */
        RunKey occurrence(JobCatalog catalog) {
            JobDefinition definition = Remote.known(catalog, job);
            Instant instant = InstantArgument.parse(spec.commandLine(), "--at", at);
            Optional<Map.Entry<JobDefinition, String>> asked =
                    EntityDelivery.asked(catalog, job, Optional.ofNullable(entityId));
            if (asked.isEmpty()) {
                requireOccurrence(definition.schedule(), instant, "job '" + job + "'");
                return new RunKey(job, instant);
            }
            String entity = asked.get().getValue();
            requireOccurrence(entitySchedule(catalog, entity).schedule(), instant, "entity '" + entity + "'");
            return new RunKey(EntityIds.ledgerId(job, entity), instant);
        }

        /**
         * The entity's schedule, read from the stage's entity group (a deployed stage's, or the emulator's
         * with --endpoint) as {@code run --entity} reads it.
         */
        private EntitySchedule entitySchedule(JobCatalog catalog, String entity) {
            return EntityDelivery.read(context, stage, catalog, Remote.known(catalog, job), entity)
                    .schedule();
        }

        private void requireOccurrence(Schedule schedule, Instant instant, String whose) {
            OccurrenceCalculator calculator = OccurrenceCalculator.of(schedule);
            if (!calculator.isOccurrence(instant)) {
                String near = calculator.previous(instant).map(p -> p + ", ").orElse("")
                        + calculator.next(instant).map(Instant::toString).orElse("none after it");
                throw new OperatorInputException("--at: '" + at + "' is not an occurrence of " + whose + " ("
                        + schedule.expression().source() + " in "
                        + schedule.zone().getId()
                        + "); accepted: one of its occurrences, e.g. the nearest: " + near);
            }
        }

        public static Map<String, Object> described(RunRecord record) {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("job", record.key().jobId());
            out.put("at", record.key().scheduledTime().toString());
            record.skip().ifPresent(s -> {
                out.put("by", s.by());
                out.put("reason", s.why());
                out.put("set_at", s.setAt().toString());
                out.put("state", s.planned() ? "planned" : "acted");
                if (!s.planned()) {
                    out.put("acted_at", s.actedAt().toString());
                }
            });
            return out;
        }
    }

    @Command(
            name = "skip",
            mixinStandardHelpOptions = true,
            resourceBundle = "dev.punctual.cli.control.OperatorTextHelp",
            description = "Skips one occurrence of a job ahead of time, with who and why: it will not run, whatever"
                    + " delivers it, until unskipped; an occurrence already started cannot be skipped.")
    public static final class Skip extends Base {

        @Mixin
        OperatorReason.Required reason;

        @Mixin
        OperatorWho by;

        public Skip(CliContext context) {
            this(context, SchedulesCommand::catalogOf);
        }

        public Skip(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        public Integer call() throws JsonProcessingException {
            if (reason.typed().isBlank()) {
                throw new OperatorInputException("--reason: empty; accepted: a reason on one line, e.g. --reason"
                        + " 'payment provider outage'");
            }
            String why = reason.checked();
            String who = by.who();
            // Checked before anything connects, against the CLI's catalog (an emulator stage's too).
            RunKey key = occurrence(catalogs.apply(stage.stageName()));
            try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
                RunLedger ledger = session.runtime.services().ledger();
                SkipPlan plan = ledger.skip(key, who, why);
                return switch (plan) {
                    case SkipPlan.Planned planned -> {
                        Map<String, Object> out = described(planned.record());
                        out.put("skip", "planned");
                        OperatorSkip skip = planned.record().skip().orElseThrow();
                        output.print(
                                out,
                                "skipped " + key.jobId() + " at " + key.scheduledTime() + " ("
                                        + RelativeTime.from(clock.instant(), key.scheduledTime()) + "), by " + skip.by()
                                        + ": " + skip.why() + "\nundo before it is delivered: punctual unskip "
                                        + job + " --at " + key.scheduledTime()
                                        + (entityId == null ? "" : " --entity " + entityId)
                                        + stage.reachedWith());
                        yield 0;
                    }
                    case SkipPlan.AlreadySkipped already -> {
                        OperatorSkip skip = already.record().skip().orElseThrow();
                        throw new OperatorInputException("--at: " + key.jobId() + " at " + key.scheduledTime()
                                + " is already skipped, by " + skip.by() + " at " + skip.setAt() + ": " + skip.why()
                                + " (" + (skip.planned() ? "planned" : "taken effect") + "); accepted: unskip it"
                                + " first to skip it with another reason");
                    }
                    case SkipPlan.AlreadyStarted started ->
                        throw new OperatorInputException("--at: " + key.jobId() + " at " + key.scheduledTime()
                                + " has already started ("
                                + started.record().map(r -> r.status().name()).orElse("claimed")
                                + "); accepted: an occurrence not yet started (a started one cannot be skipped)");
                    case SkipPlan.BehindCursor behind ->
                        throw new OperatorInputException("--at: " + key.jobId() + " at " + key.scheduledTime()
                                + " is at or before the job's cursor " + behind.cursor() + ", which no delivery or"
                                + " catch-up runs again; accepted: an occurrence after " + behind.cursor());
                    case SkipPlan.TooMany many ->
                        throw new OperatorInputException("--at: " + key.jobId() + " already has " + many.limit()
                                + " skips ahead of its cursor, the most it may carry (each is read by every claim);"
                                + " accepted: unskip one (punctual status " + job + " lists them), or switch the job"
                                + " off for a long outage");
                };
            }
        }
    }

    @Command(
            name = "unskip",
            mixinStandardHelpOptions = true,
            description = "Removes a skip set with punctual skip, if no delivery has met it yet: the occurrence runs"
                    + " as scheduled (or by catch-up, if already due).")
    public static final class Unskipping extends Base {

        public Unskipping(CliContext context) {
            this(context, SchedulesCommand::catalogOf);
        }

        public Unskipping(CliContext context, Function<String, JobCatalog> catalogs) {
            super(context, catalogs);
        }

        @Override
        public Integer call() throws JsonProcessingException {
            RunKey key = occurrence(catalogs.apply(stage.stageName()));
            try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
                Unskip answer = session.runtime.services().ledger().unskip(key);
                return switch (answer) {
                    case Unskip.Removed removed -> {
                        Map<String, Object> out = described(removed.removed());
                        out.put("skip", "removed");
                        output.print(
                                out,
                                "unskipped " + key.jobId() + " at " + key.scheduledTime()
                                        + ": it runs when delivered (or caught up)");
                        yield 0;
                    }
                    case Unskip.AlreadyActed acted -> {
                        OperatorSkip skip = acted.record().skip().orElseThrow();
                        throw new OperatorInputException("--at: the skip of " + key.jobId() + " at "
                                + key.scheduledTime() + " already took effect at " + skip.actedAt()
                                + ", so it stands as the occurrence's record; accepted: a skip not yet met by a"
                                + " delivery");
                    }
                    case Unskip.NotSkipped none ->
                        throw new OperatorInputException("--at: " + key.jobId() + " at " + key.scheduledTime()
                                + " has no skip to remove"
                                + none.record()
                                        .map(r -> " (its record: " + r.status() + ")")
                                        .orElse("")
                                + "; accepted: an occurrence skipped with punctual skip (punctual status " + job
                                + " lists them)");
                };
            }
        }
    }
}
