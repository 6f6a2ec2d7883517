package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.SkipPlan;
import dev.punctual.ledger.Unskip;
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
 * The runtime meeting an operator's skip (issue 22, 2; decision 0033): the delivery of a skipped
 * occurrence never runs it, whatever the trigger, reports OPERATOR_SKIPPED with who and why, and counts
 * nothing as missed; catch-up passes it; an unskip before its delivery lets it run. Run on every ledger.
 */
public abstract class OperatorSkipContract {

    /** The ledger the runtime runs on, on the fixture's clock. */
    protected abstract RunLedger ledger(MutableClock clock);

    private static final Instant NINE = Instant.parse("2026-12-01T09:00:00Z");
    private static final Instant QUARTER = NINE.plus(Duration.ofMinutes(15));
    private static final Instant HALF = NINE.plus(Duration.ofMinutes(30));
    private static final String OPS = "ops";
    private static final String WHY = "provider outage 09:10-09:20";

    /** Every occurrence the job ran, in order. */
    private final List<Instant> ran = new CopyOnWriteArrayList<>();

    private JobDefinition quarterly() {
        return JobDefinition.builder("quarterly")
                .schedule("*/15 * * * *", "UTC")
                .job(services -> context -> {
                    ran.add(context.occurrence());
                    return JobResult.empty();
                })
                .build();
    }

    private RuntimeFixture fixture(Instant start) {
        return new RuntimeFixture(start, StageFlags.defaultsFor("dev"), this::ledger, f -> JobCatalog.of(quarterly()));
    }

    private static void moveTo(RuntimeFixture f, Instant at) {
        f.clock.advance(Duration.between(f.clock.peek(), at));
    }

    private static RunKey at(Instant t) {
        return new RunKey("quarterly", t);
    }

    @Test
    void deliveryOfASkippedOccurrence_isReportedWithWhoAndWhy_neverRun_andNotCountedAsMissed() {
        RuntimeFixture f = fixture(NINE);
        f.invoke(RuntimeFixture.scheduled("quarterly", NINE));
        assertThat(f.ledger.skip(at(QUARTER), OPS, WHY)).isInstanceOf(SkipPlan.Planned.class);
        moveTo(f, QUARTER.plusSeconds(2));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("quarterly", QUARTER));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.SKIP);
            assertThat(o.reason()).isEqualTo(Reason.OPERATOR_SKIPPED);
            assertThat(o.detail()).isEqualTo("skipped by ops at " + NINE + ": " + WHY);
        });
        assertThat(ran).containsExactly(NINE);
        JsonNode line = f.outcomeLines().get(1);
        assertThat(line.get("reason").asText()).isEqualTo("OPERATOR_SKIPPED");
        assertThat(line.get("missed_count").asInt()).isZero();
        assertThat(f.ledger.run(at(QUARTER)).orElseThrow().skip().orElseThrow().actedAt())
                .isEqualTo(QUARTER.plusSeconds(2));
        assertThat(f.ledger.unskip(at(QUARTER))).isInstanceOf(Unskip.AlreadyActed.class);
    }

    @Test
    void nextDelivery_catchesUpPastTheSkip_reportingItAsRecordedBefore_andRunsItsOwnOccurrence() {
        RuntimeFixture f = fixture(NINE);
        f.invoke(RuntimeFixture.scheduled("quarterly", NINE));
        f.ledger.skip(at(QUARTER), OPS, WHY);
        moveTo(f, QUARTER.plusSeconds(1));
        f.invoke(RuntimeFixture.scheduled("quarterly", QUARTER));
        moveTo(f, HALF.plusSeconds(1));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("quarterly", HALF));

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(tuple(QUARTER, Reason.OPERATOR_SKIPPED), tuple(HALF, Reason.OK));
        assertThat(result.occurrences().get(0).detail()).startsWith(OccurrenceRunner.RECORDED_BEFORE);
        assertThat(ran).containsExactly(NINE, HALF);
        assertThat(f.ledger.cursor("quarterly")).contains(HALF);
        assertThat(f.outcomeLines())
                .extracting(l -> l.get("missed_count").asInt())
                .containsOnly(0);
    }

    @Test
    void skipOfAMissedOccurrence_isMetByTheCatchUpItself_whichActsOnIt_andRunsTheRest() {
        RuntimeFixture f = fixture(NINE);
        f.invoke(RuntimeFixture.scheduled("quarterly", NINE));
        f.ledger.skip(at(QUARTER), OPS, WHY);
        moveTo(f, HALF.plusSeconds(1));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("quarterly", HALF));

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(tuple(QUARTER, Reason.OPERATOR_SKIPPED), tuple(HALF, Reason.OK));
        assertThat(result.occurrences().get(0).detail()).doesNotStartWith(OccurrenceRunner.RECORDED_BEFORE);
        assertThat(ran).containsExactly(NINE, HALF);
        assertThat(f.ledger.run(at(QUARTER)).orElseThrow().skip().orElseThrow().planned())
                .isFalse();
    }

    @Test
    void operatorsRunOfASkippedOccurrence_isRefusedToo_untilItIsUnskipped() {
        RuntimeFixture f = fixture(NINE);
        f.ledger.skip(at(NINE), OPS, WHY);
        moveTo(f, NINE.plusSeconds(5));
        String run = "{\"kind\":\"run\",\"job\":\"quarterly\",\"at\":\"" + NINE + "\",\"force\":true}";

        InvocationResult refused = f.invoke(run);

        assertThat(refused.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OPERATOR_SKIPPED));
        assertThat(ran).isEmpty();
        assertThat(f.ledger.unskip(at(NINE))).isInstanceOf(Unskip.AlreadyActed.class);
    }

    @Test
    void unskipBeforeTheDelivery_letsTheOccurrenceRunAsScheduled() {
        RuntimeFixture f = fixture(NINE);
        f.ledger.skip(at(NINE), OPS, WHY);
        assertThat(f.ledger.unskip(at(NINE))).isInstanceOf(Unskip.Removed.class);
        moveTo(f, NINE.plusSeconds(1));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("quarterly", NINE));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
        assertThat(ran).containsExactly(NINE);
    }
}
