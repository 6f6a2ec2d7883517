package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.ApprovalPlan;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The runtime and a job needing approval (decision 0041): without an approval a delivery is skipped as
 * UNAPPROVED, never run, with the command that approves it; with one it runs and uses it; an approval
 * given after the skip lets an operator's run of the occurrence run it; a stage where the rule does not
 * apply runs the job without one. Run on every ledger.
 */
public abstract class ApprovalRuntimeContract {

    /** The ledger the runtime runs on, on the fixture's clock. */
    protected abstract RunLedger ledger(MutableClock clock);

    private static final Instant NINE = Instant.parse("2026-12-01T09:00:00Z");
    private static final Instant QUARTER = NINE.plus(Duration.ofMinutes(15));
    private static final String OPS = "ops";

    /** Every occurrence the job ran, in order. */
    private final List<Instant> ran = new CopyOnWriteArrayList<>();

    private JobDefinition closing() {
        return JobDefinition.builder("close-accounts")
                .schedule("*/15 * * * *", "UTC")
                .requiresApprovalWhereDestructiveAllowed()
                .job(services -> context -> {
                    ran.add(context.occurrence());
                    return JobResult.empty();
                })
                .build();
    }

    /** prod allows destructive jobs by default, so the job needs approval there; dev does not. */
    private RuntimeFixture fixture(String stage, Instant start) {
        return new RuntimeFixture(start, StageFlags.defaultsFor(stage), this::ledger, f -> JobCatalog.of(closing()));
    }

    private static void moveTo(RuntimeFixture f, Instant at) {
        f.clock.advance(Duration.between(f.clock.peek(), at));
    }

    private static RunKey at(Instant t) {
        return new RunKey("close-accounts", t);
    }

    @Test
    void deliveryWithoutApproval_isSkippedUnapproved_neverRun_namingTheCommandThatApprovesIt() {
        RuntimeFixture f = fixture("prod", NINE.plusSeconds(2));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("close-accounts", NINE));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.SKIP);
            assertThat(o.reason()).isEqualTo(Reason.UNAPPROVED);
            assertThat(o.detail()).isEqualTo("needs approval: punctual approve close-accounts --at " + NINE);
        });
        assertThat(ran).isEmpty();
        JsonNode line = f.outcomeLines().getFirst();
        assertThat(line.get("reason").asText()).isEqualTo("UNAPPROVED");
        assertThat(line.get("missed_count").asInt()).isZero();
        assertThat(f.ledger.run(at(NINE)).orElseThrow().reason()).startsWith("UNAPPROVED: needs approval");
    }

    @Test
    void deliveryWithApproval_runs_andUsesIt_soTheNextOccurrenceNeedsItsOwn() {
        RuntimeFixture f = fixture("prod", NINE);
        assertThat(f.ledger.approve(at(NINE), OPS, "checked", "would close 3 accounts"))
                .isInstanceOf(ApprovalPlan.Planned.class);
        moveTo(f, NINE.plusSeconds(2));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("close-accounts", NINE));
        moveTo(f, QUARTER.plusSeconds(2));
        InvocationResult next = f.invoke(RuntimeFixture.scheduled("close-accounts", QUARTER));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
        assertThat(next.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.UNAPPROVED));
        assertThat(ran).containsExactly(NINE);
        assertThat(f.ledger.run(at(NINE)).orElseThrow().plannedApproval()).isEmpty();
    }

    @Test
    void approvalAfterTheSkip_letsAnOperatorsRunOfTheOccurrenceRunIt() {
        RuntimeFixture f = fixture("prod", NINE.plusSeconds(2));
        f.invoke(RuntimeFixture.scheduled("close-accounts", NINE));
        assertThat(f.ledger.approve(at(NINE), OPS, "late, checked", "would close 3 accounts"))
                .isInstanceOf(ApprovalPlan.PlannedAfterSkip.class);
        moveTo(f, NINE.plusSeconds(60));

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"close-accounts\",\"at\":\"" + NINE + "\"}");

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
        assertThat(ran).containsExactly(NINE);
        assertThat(f.ledger.run(at(NINE)).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    /**
     * The cursor stays before an UNAPPROVED skip, so the next delivery catches it up first: its own claim is
     * given back (DEFERRED) after using its approval, which the give-back restores for the claim that runs it.
     */
    @Test
    void catchUpMeetingTheSameUnapprovedSkip_reportsItAsRecordedBefore_andRunsAnApprovedOccurrenceAfterIt() {
        Instant before = NINE.minus(Duration.ofMinutes(15));
        RuntimeFixture f = fixture("prod", before);
        f.ledger.approve(at(before), OPS, "checked", "would close 2 accounts");
        moveTo(f, before.plusSeconds(2));
        f.invoke(RuntimeFixture.scheduled("close-accounts", before));
        moveTo(f, NINE.plusSeconds(2));
        f.invoke(RuntimeFixture.scheduled("close-accounts", NINE));
        f.ledger.approve(at(QUARTER), OPS, "checked", "would close 1 account");
        moveTo(f, QUARTER.plusSeconds(2));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("close-accounts", QUARTER));

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(tuple(NINE, Reason.UNAPPROVED), tuple(QUARTER, Reason.OK));
        assertThat(result.occurrences().getFirst().detail()).startsWith(OccurrenceRunner.RECORDED_BEFORE);
        assertThat(ran).containsExactly(before, QUARTER);
    }

    @Test
    void stageWhereTheRuleDoesNotApply_runsTheJobWithoutAnApproval() {
        RuntimeFixture f = fixture("dev", NINE.plusSeconds(2));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("close-accounts", NINE));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
        assertThat(ran).containsExactly(NINE);
    }
}
