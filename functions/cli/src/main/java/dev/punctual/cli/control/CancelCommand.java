package dev.punctual.cli.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorReason;
import dev.punctual.cli.input.OperatorWho;
import dev.punctual.cli.output.ExitCodes;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.json.Json;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.ExecutionRecord;
import dev.punctual.ledger.NextDue;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Summaries;
import dev.punctual.longrun.LongExecutions;
import dev.punctual.outcome.Reason;
import dev.punctual.runtime.LongClaim;
import dev.punctual.runtime.longrun.BadLongClaim;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code cancel JOB --at T --reason TEXT} (decision 0039, issue 37): stops a running long occurrence's Step
 * Functions execution and records the occurrence FAILED as cancelled, with who and why. The record is the
 * claim's own completion, under the lease the execution's input carries, so it applies only while that
 * claim still holds the run: a finish or a chunk's last failure that got there first stands, and so does a
 * newer claim. Releasing the group is that completion's, as for any occurrence.
 *
 * <p>Who records it: on the emulator the CLI, as the stage's function would (moto routes no status event);
 * on a stage the function itself, from the stopped execution's ABORTED event, which the CLI waits for
 * reading only: the operator policy grants the stop, not a completion ({@link #recordedByTheStage}).
 */
@Command(
        name = "cancel",
        mixinStandardHelpOptions = true,
        resourceBundle = "dev.punctual.cli.control.OperatorTextHelp",
        description = "Cancels a running long occurrence: stops its execution and records it FAILED as CANCELLED"
                + " with who and why, releasing its lock group; punctual run JOB --at T retries it later, resuming"
                + " with the chunks not yet done.",
        footer = {
            "",
            "Example:",
            "  punctual cancel month-end-close --at 2027-01-31T23:00:00Z --reason 'wrong FX rates loaded'"
                    + " --stage prod",
            "",
            "Exit 0 when cancelled; 3 when there was nothing to cancel (the occurrence is not running, or ran"
                    + " under another claim); 2 for refused input (a job that is not long, a time that is not an"
                    + " occurrence, no --reason)."
        })
public final class CancelCommand extends SkipCommand.Base {

    @Mixin
    OperatorReason.Required reason;

    @Mixin
    OperatorWho by;

    /** A test's catalog, run in this JVM's session (its long jobs' claims are read against it); null for the CLI's. */
    private final JobCatalog ownCatalog;

    public CancelCommand(CliContext context) {
        this(context, SchedulesCommand::catalogOf, null);
    }

    public CancelCommand(CliContext context, Function<String, JobCatalog> catalogs, JobCatalog ownCatalog) {
        super(context, catalogs);
        this.ownCatalog = ownCatalog;
    }

    @Override
    public Integer call() throws JsonProcessingException {
        if (reason.typed().isBlank()) {
            throw new OperatorInputException(
                    "--reason: empty; accepted: a reason on one line, e.g. --reason" + " 'wrong FX rates loaded'");
        }
        String typed = reason.checked();
        String who = by.who();
        // Stored and shown redacted, as a skip's and a hold's reason are.
        String why = "CANCELLED by " + who + ": " + Summaries.operatorText(typed);
        JobCatalog catalog = catalogs.apply(stage.stageName());
        JobDefinition definition = Remote.known(catalog, job);
        if (!definition.isLong()) {
            throw new OperatorInputException("JOB: '" + job + "' does not run long (runsLong), so it has no execution"
                    + " to cancel; accepted: a long job (punctual jobs marks them)");
        }
        // Checked before anything connects (an entity's schedule is read from the stage: a read only).
        RunKey key = occurrence(catalog);
        try (OperatorSession session =
                new OperatorSession(stage, context, line -> {}, false, ownCatalog).withTables()) {
            RunLedger ledger = session.runtime.services().ledger();
            Optional<RunRecord> run = ledger.run(key);
            if (run.isEmpty() || run.get().status() != RunStatus.RUNNING) {
                return nothing(
                        key,
                        run.map(r -> r.status().name()).orElse(null),
                        run.map(r -> "it is " + r.status() + (r.reason() == null ? "" : " (" + r.reason() + ")"))
                                .orElse("it has no run in the ledger"));
            }
            Optional<ExecutionRecord> noted = ledger.longRuns().execution(key);
            if (noted.isEmpty() || noted.get().fence() != run.get().fence()) {
                return nothing(
                        key,
                        "RUNNING",
                        "it is RUNNING but no execution is noted for its claim (fence "
                                + run.get().fence()
                                + ") yet: its start is under way, or its starter died and the watchdog's sweep"
                                + " starts it again; try again in a minute");
            }
            ExecutionRecord record = noted.get();
            LongExecutions executions = executions(session, record);
            Optional<LongExecutions.Execution> execution = executions.describe(job, record.name());
            if (execution.isEmpty()) {
                return nothing(
                        key,
                        "RUNNING",
                        "its execution " + record.name() + " was noted but never started; the watchdog's sweep"
                                + " starts it again under the same name; try again in a minute");
            }
            LongClaim claim = claimOf(execution.get(), session.catalog);
            if (!claim.claim().lease().ownerToken().equals(run.get().ownerToken())) {
                return nothing(key, "RUNNING", "its run is under another claim than execution " + record.name() + "'s");
            }
            boolean stopped = executions.stop(job, record.name(), why);
            if (session.deployed.isPresent()) {
                return recordedByTheStage(ledger, key, record, claim, stopped, why);
            }
            // On the emulator no status rule routes the stop to a function: the CLI records it, as that step would.
            // Re-read first: a finish or a chunk's last failure may have recorded the occurrence meanwhile.
            Optional<RunRecord> now = ledger.run(key);
            if (!runsUnder(now, claim)) {
                return nothing(
                        key,
                        now.map(r -> r.status().name()).orElse(null),
                        (stopped ? "its execution was stopped, but " : "")
                                + "the occurrence was recorded meanwhile"
                                + now.map(r -> " as " + r.status()).orElse(""));
            }
            CompletionResult completion = complete(ledger, claim, why);
            if (completion instanceof CompletionResult.Fenced) {
                return nothing(
                        key,
                        "RUNNING",
                        (stopped ? "its execution was stopped, but " : "")
                                + "the claim's lease had moved on (a newer claim): nothing was recorded");
            }
            Map<String, Object> out = occurrence(key);
            out.put("cancelled", true);
            out.put("execution", record.name());
            out.put("arn", record.arn());
            out.put("stopped", stopped);
            out.put(
                    "execution_status",
                    stopped ? "ABORTED" : execution.get().status().name());
            out.put("outcome", Reason.CANCELLED.verdict().name());
            out.put("reason", Reason.CANCELLED.name());
            out.put("by", who);
            out.put("detail", why);
            out.put("status", completion.record().status().name());
            output.print(
                    out,
                    "cancelled " + key.jobId() + " at " + key.scheduledTime() + ": "
                            + (stopped
                                    ? "execution " + record.name() + " stopped"
                                    : "execution " + record.name() + " had already ended ("
                                            + execution.get().status() + ")")
                            + "; recorded " + completion.record().status() + " (" + why + "), lock group released"
                            + "\nretry later: punctual run " + job + " --at " + key.scheduledTime()
                            + (entityId == null ? "" : " --entity " + entityId) + stage.reachedWith()
                            + " (a new execution, resuming with the chunks not yet done)");
            return 0;
        }
    }

    /** How long a cancel on a stage waits for the stage's function to record the stopped execution. */
    static final java.time.Duration RECORD_WAIT = java.time.Duration.ofSeconds(60);

    private static final java.time.Duration POLL = java.time.Duration.ofSeconds(2);

    /**
     * On a stage the stopped execution's ABORTED status event reaches the pool's function through the stage's
     * rule, and the function records the occurrence FAILED under the claim (decision 0039, 5), its cause
     * carrying who and why. The operator's policy grants no completion (it would have to name the slot's
     * owner and the cursor, and put whole run items: decision 0037 keeps those the functions'), so the CLI
     * waits for that record, reading only. An execution already closed is recorded by the same event, or by
     * the watchdog's sweep of running long occurrences.
     */
    private int recordedByTheStage(
            RunLedger ledger, RunKey key, ExecutionRecord record, LongClaim claim, boolean stopped, String why)
            throws JsonProcessingException {
        Instant until = clock.instant().plus(RECORD_WAIT);
        Optional<RunRecord> now = ledger.run(key);
        while (runsUnder(now, claim) && clock.instant().isBefore(until)) {
            try {
                context.sleeper().sleep(POLL);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            now = ledger.run(key);
        }
        boolean recorded = !runsUnder(now, claim);
        if (!stopped && !recorded) {
            return nothing(
                    key,
                    "RUNNING",
                    "its execution " + record.name() + " had already ended; the stage's function records it from the"
                            + " execution's status event, or the watchdog's sweep does: punctual status " + job
                            + " shows it");
        }
        Map<String, Object> out = occurrence(key);
        out.put("cancelled", stopped);
        out.put("execution", record.name());
        out.put("arn", record.arn());
        out.put("stopped", stopped);
        out.put("reason", Reason.CANCELLED.name());
        out.put("detail", why);
        out.put("recorded_by", "the stage's function (the execution's status event)");
        out.put("status", now.map(r -> r.status().name()).orElse(null));
        out.put("error", now.map(RunRecord::errorSummary).orElse(null));
        output.print(
                out,
                (stopped ? "cancelled " : "not cancelled: ") + key.jobId() + " at " + key.scheduledTime()
                        + ": execution " + record.name() + (stopped ? " stopped (" + why + ")" : " had already ended")
                        + (recorded
                                ? "; recorded "
                                        + now.map(r -> r.status() + ": " + r.errorSummary())
                                                .orElse("") + " by the stage's function, lock group released"
                                : "; the stage's function records it when the status event arrives (not within "
                                        + RECORD_WAIT.toSeconds() + "s): punctual status " + job + " shows it"));
        return stopped ? 0 : ExitCodes.RAN_NOTHING;
    }

    private static boolean runsUnder(Optional<RunRecord> run, LongClaim claim) {
        return run.filter(r -> r.status() == RunStatus.RUNNING)
                .filter(r -> claim.claim().lease().ownerToken().equals(r.ownerToken()))
                .isPresent();
    }

    /**
     * The engine the runtime uses: on the emulator the session's own (moto's Step Functions); on a stage,
     * Step Functions with this CLI's credentials, at the state machines the execution's ARN names (the
     * partition, region and account of the stage that started it).
     */
    private LongExecutions executions(OperatorSession session, ExecutionRecord record) {
        if (session.deployed.isEmpty()) {
            return session.runtime.services().executions();
        }
        String[] arn = record.arn().split(":");
        String prefix = String.join(":", arn[0], arn[1], arn[2], arn[3], arn[4]) + ":stateMachine:punctual-"
                + stage.stageName() + "-";
        return new dev.punctual.longrun.stepfunctions.StepFunctionsExecutions(
                context.aws().stepFunctions(software.amazon.awssdk.regions.Region.of(arn[3])), prefix);
    }

    private static LongClaim claimOf(LongExecutions.Execution execution, JobCatalog catalog) {
        try {
            Object input = Json.read(execution.input());
            return LongClaim.from(input instanceof Map<?, ?> m ? m.get("claim") : null, catalog);
        } catch (Json.NotJsonException e) {
            throw new BadLongClaim("execution " + execution.name() + "'s input is not JSON: " + e.getMessage());
        }
    }

    /** The claim's completion, as its execution's last step would send it (a per-entity one notes its next due). */
    private static CompletionResult complete(RunLedger ledger, LongClaim claim, String why) {
        Outcome failed = new Outcome.Failed(why);
        if (claim.entity().isEmpty()) {
            return ledger.complete(claim.claim(), failed);
        }
        Optional<Instant> next =
                claim.subject().occurrences().next(claim.claim().key().scheduledTime());
        return ledger.complete(claim.claim(), failed, new NextDue(next));
    }

    /** Nothing was cancelled: why, and exit 3 (as a run that ran nothing). */
    private int nothing(RunKey key, String status, String why) throws JsonProcessingException {
        Map<String, Object> out = occurrence(key);
        out.put("cancelled", false);
        out.put("status", status);
        out.put("detail", "nothing to cancel: " + why);
        output.print(out, "nothing to cancel: " + key.jobId() + " at " + key.scheduledTime() + ": " + why);
        return ExitCodes.RAN_NOTHING;
    }

    private Map<String, Object> occurrence(RunKey key) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("job", job);
        if (entityId != null) {
            out.put("entity", entityId);
            out.put("ledger_id", key.jobId());
        }
        out.put("at", key.scheduledTime().toString());
        return out;
    }
}
