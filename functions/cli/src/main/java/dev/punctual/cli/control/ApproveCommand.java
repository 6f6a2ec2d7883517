package dev.punctual.cli.control;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.input.OperatorReason;
import dev.punctual.cli.input.OperatorWho;
import dev.punctual.cli.output.Json;
import dev.punctual.cli.output.RelativeTime;
import dev.punctual.cli.output.ResultOutput;
import dev.punctual.cli.schedules.EntityDelivery;
import dev.punctual.cli.schedules.SchedulesCommand;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.cli.stage.OperatorSession;
import dev.punctual.cli.stage.Remote;
import dev.punctual.job.ApprovalRule;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.ledger.Approval;
import dev.punctual.ledger.ApprovalPlan;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.ResultJson;
import dev.punctual.runtime.ScheduledPayload;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code approve JOB --at T} (issue 38, 2; decision 0041): an operator's approval of one occurrence of a job
 * that needs one. It first shows the occurrence's preview (the job's dry run: claims, writes and sends
 * nothing; in the stage's function, or in this JVM on an emulator), then records who approved what, with
 * that preview, on the occurrence's run item and the job's lock item; the next claim of the occurrence uses
 * it, once. Every refusal of the input comes before the first request.
 */
@Command(
        name = "approve",
        mixinStandardHelpOptions = true,
        resourceBundle = "dev.punctual.cli.control.OperatorTextHelp",
        description = "Approves one occurrence of a job that needs approval, after showing its preview (the job's dry"
                + " run): the next claim of that occurrence runs it, once; an occurrence without one is skipped"
                + " as UNAPPROVED.")
public final class ApproveCommand extends SkipCommand.Base {

    @Mixin
    OperatorReason.Optional reason;

    @Mixin
    OperatorWho by;

    public ApproveCommand(CliContext context) {
        this(context, SchedulesCommand::catalogOf);
    }

    public ApproveCommand(CliContext context, Function<String, JobCatalog> catalogs) {
        super(context, catalogs);
    }

    @Override
    public Integer call() throws JsonProcessingException {
        String why = reason.typed() == null ? "" : reason.checked();
        String who = by.who();
        JobCatalog catalog = catalogs.apply(stage.stageName());
        JobDefinition definition = Remote.known(catalog, job);
        if (definition.approval() == ApprovalRule.NEVER) {
            throw new OperatorInputException("JOB: '" + job + "' needs no approval (its definition declares none);"
                    + " accepted: a job declared with requiresApproval() or requiresApprovalWhereDestructiveAllowed()");
        }
        // Checked before anything connects, against the CLI's catalog (an emulator stage's too).
        RunKey key = occurrence(catalog);
        String preview = preview(catalog, key);
        spec.commandLine()
                .getErr()
                .println("preview of " + key.jobId() + " at " + key.scheduledTime() + ": " + preview);
        try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
            RunLedger ledger = session.runtime.services().ledger();
            ApprovalPlan plan = ledger.approve(key, who, why, preview);
            String again = "punctual run " + job + " --at " + key.scheduledTime()
                    + (entityId == null ? "" : " --entity " + entityId) + stage.reachedWith();
            return switch (plan) {
                case ApprovalPlan.Planned planned -> {
                    Map<String, Object> out = approved(planned.record(), "planned");
                    output.print(
                            out,
                            planned.record().plannedApproval().orElseThrow().describe() + "\n" + key.jobId() + " at "
                                    + key.scheduledTime() + " ("
                                    + RelativeTime.from(clock.instant(), key.scheduledTime())
                                    + ") runs when delivered, once; a later occurrence needs its own approval");
                    yield 0;
                }
                case ApprovalPlan.PlannedAfterSkip after -> {
                    Map<String, Object> out = approved(after.record(), "planned after skip");
                    out.put("skipped", after.replacedSkip().reason());
                    output.print(
                            out,
                            after.record().plannedApproval().orElseThrow().describe() + "\n" + key.jobId() + " at "
                                    + key.scheduledTime() + " was already delivered and skipped ("
                                    + after.replacedSkip().reason() + "); to run it now: " + again
                                    + " (or a later delivery catches it up within its start deadline)");
                    yield 0;
                }
                case ApprovalPlan.AlreadyApproved already -> {
                    Approval a = already.record().plannedApproval().orElseThrow();
                    throw new OperatorInputException("--at: " + key.jobId() + " at " + key.scheduledTime()
                            + " is already " + a.describe() + ", not yet used; accepted: an occurrence not yet"
                            + " approved (one approval per occurrence)");
                }
                case ApprovalPlan.OperatorSkipped skipped ->
                    throw new OperatorInputException("--at: " + key.jobId() + " at " + key.scheduledTime()
                            + " is skipped (" + skipped.record().reason() + "); accepted: unskip it first"
                            + " (punctual unskip " + job + " --at " + key.scheduledTime() + ")");
                case ApprovalPlan.AlreadyStarted started ->
                    throw new OperatorInputException("--at: " + key.jobId() + " at " + key.scheduledTime()
                            + " has already started ("
                            + started.record().map(r -> r.status().name()).orElse("claimed")
                            + "); accepted: an occurrence not yet run (an approval names one occurrence and is"
                            + " used by its claim: a rerun of one that ran cannot be approved)");
                case ApprovalPlan.BehindCursor behind ->
                    throw new OperatorInputException("--at: " + key.jobId() + " at " + key.scheduledTime()
                            + " is at or before the job's cursor " + behind.cursor() + " and was never delivered;"
                            + " accepted: an occurrence after " + behind.cursor() + ", or one skipped as UNAPPROVED");
                case ApprovalPlan.TooMany many ->
                    throw new OperatorInputException("--at: " + key.jobId() + " already has " + many.limit()
                            + " approvals ahead of its cursor, the most it may carry (each is read by every"
                            + " claim); accepted: an occurrence after those run (punctual status " + job
                            + " lists them)");
            };
        }
    }

    private static Map<String, Object> approved(RunRecord record, String state) {
        Approval a = record.plannedApproval().orElseThrow();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("job", record.key().jobId());
        out.put("at", record.key().scheduledTime().toString());
        out.put("approval", state);
        out.put("by", a.by());
        out.put("reason", a.why());
        out.put("approved_at", a.at().toString());
        out.put("preview", a.preview());
        return out;
    }

    /**
     * The occurrence's preview: a manual dry run of it ({@code run --at T --dry-run}), in this JVM on an
     * emulator, else in the stage's function; its detail is the job's preview counts.
     */
    private String preview(JobCatalog catalog, RunKey key) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("kind", "run");
        p.put("job", job);
        Optional.ofNullable(entityId)
                .map(e -> EntityDelivery.read(context, stage, catalog, Remote.known(catalog, job), e))
                .ifPresent(e -> p.putAll(e.fields()));
        p.put("at", key.scheduledTime().toString());
        p.put(ScheduledPayload.DRY_RUN, true);
        String payload;
        try {
            payload = Json.mapper().writeValueAsString(p);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        String answer;
        if (stage.emulator()) {
            try (OperatorSession session = new OperatorSession(stage, context, line -> {}).withTables()) {
                Deadline deadline =
                        Deadline.fromRemaining(clock.instant(), CliContext.CLI_BUDGET, Lease.DEADLINE_MARGIN);
                InvocationResult result = session.runtime.handle(
                        payload,
                        deadline,
                        dev.punctual.handler.Wiring.log(line -> {}, clock),
                        (definition, outcome, log) -> {});
                answer = ResultJson.render(result);
            }
        } else {
            try (Remote remote = Remote.open(context, stage, Optional.of(job), catalog)) {
                answer = remote.invocation()
                        .invoke(remote.pool(), payload, false)
                        .body();
            }
        }
        JsonNode occurrence = ResultOutput.parse(answer).path("occurrences").path(0);
        String detail = occurrence.path("detail").asText("");
        return detail.isEmpty() ? occurrence.path("reason").asText("(no preview)") : detail;
    }
}
