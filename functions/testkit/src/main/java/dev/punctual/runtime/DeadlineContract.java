package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
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
 * A job's start deadline (issue 22, 1; decision 0032): an occurrence delivered or caught up later than its
 * time plus the deadline is recorded as SKIP DEADLINE_PASSED on its own run item and counted as missed,
 * never run; a replay runs it only when forced; an operator's run of it is not judged. Run on every ledger.
 */
public abstract class DeadlineContract {

    /** The ledger the runtime runs on, on the fixture's clock. */
    protected abstract RunLedger ledger(MutableClock clock);

    private static final Duration DEADLINE = Duration.ofMinutes(20);

    /** Every occurrence the job ran, in order. */
    private final List<Instant> ran = new CopyOnWriteArrayList<>();

    private JobDefinition sendBy() {
        return JobDefinition.builder("send-by")
                .schedule("*/15 * * * *", "UTC")
                .startDeadline(DEADLINE)
                .job(services -> context -> {
                    ran.add(context.occurrence());
                    return JobResult.empty();
                })
                .build();
    }

    private RuntimeFixture fixture(Instant start) {
        return new RuntimeFixture(start, StageFlags.defaultsFor("dev"), this::ledger, f -> JobCatalog.of(sendBy()));
    }

    private static void moveTo(RuntimeFixture f, Instant at) {
        f.clock.advance(Duration.between(f.clock.peek(), at));
    }

    private static final Instant NINE = Instant.parse("2026-12-01T09:00:00Z");

    @Test
    void aDelivery_atItsLatestStart_runs() {
        RuntimeFixture f = fixture(NINE.plus(DEADLINE));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("send-by", NINE));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
        assertThat(ran).containsExactly(NINE);
    }

    @Test
    void aDelivery_oneMillisecondPastItsDeadline_isRecordedAsADeadlineSkip_countedAsMissed_neverRun() {
        RuntimeFixture f = fixture(NINE.plus(DEADLINE).plusMillis(1));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("send-by", NINE));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.verdict()).isEqualTo(Verdict.SKIP);
            assertThat(o.reason()).isEqualTo(Reason.DEADLINE_PASSED);
            assertThat(o.detail()).isEqualTo("latest start 2026-12-01T09:20:00Z (startDeadline PT20M), 1 ms late");
        });
        assertThat(ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("send-by", NINE))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.SKIPPED);
            assertThat(r.reason()).startsWith("DEADLINE_PASSED: latest start 2026-12-01T09:20:00Z");
            assertThat(r.attempts()).isZero();
        });
        JsonNode line = f.outcomeLines().get(0);
        assertThat(line.get("reason").asText()).isEqualTo("DEADLINE_PASSED");
        assertThat(line.get("missed_count").asInt()).isEqualTo(1);
    }

    @Test
    void aCatchUp_judgesEachOccurrenceAgainstItsOwnDeadline_skippingTheTooLate_andRunningTheRest() {
        RuntimeFixture f = fixture(NINE);
        f.invoke(RuntimeFixture.scheduled("send-by", NINE));
        Instant ten = NINE.plus(Duration.ofHours(1));
        moveTo(f, ten.plus(Duration.ofMinutes(1)));

        // 09:15 is 46 minutes late, 09:30 31, 09:45 16 (within 20), 10:00 1.
        InvocationResult result = f.invoke(RuntimeFixture.scheduled("send-by", ten));

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(NINE.plus(Duration.ofMinutes(15)), Reason.DEADLINE_PASSED),
                        org.assertj.core.groups.Tuple.tuple(NINE.plus(Duration.ofMinutes(30)), Reason.DEADLINE_PASSED),
                        org.assertj.core.groups.Tuple.tuple(NINE.plus(Duration.ofMinutes(45)), Reason.OK),
                        org.assertj.core.groups.Tuple.tuple(ten, Reason.OK));
        assertThat(ran).containsExactly(NINE, NINE.plus(Duration.ofMinutes(45)), ten);
        assertThat(f.ledger.run(new RunKey("send-by", NINE.plus(Duration.ofMinutes(15)))))
                .hasValueSatisfying(r -> assertThat(r.reason()).startsWith("DEADLINE_PASSED"));
        assertThat(f.ledger.cursor("send-by")).contains(ten);
        assertThat(f.outcomeLines())
                .filteredOn(l -> l.get("reason").asText().equals("DEADLINE_PASSED"))
                .extracting(l -> l.get("missed_count").asInt())
                .containsExactly(1, 1);
    }

    @Test
    void aDeadlineSkip_metAgainByTheNextCatchUp_isNotCountedTwice() {
        RuntimeFixture f = fixture(NINE);
        f.invoke(RuntimeFixture.scheduled("send-by", NINE));
        Instant quarter = NINE.plus(Duration.ofMinutes(15));
        moveTo(f, quarter.plus(DEADLINE).plusSeconds(1));
        f.invoke(RuntimeFixture.scheduled("send-by", quarter));
        Instant half = NINE.plus(Duration.ofMinutes(30));
        moveTo(f, half.plus(Duration.ofMinutes(6)));

        InvocationResult result = f.invoke(RuntimeFixture.scheduled("send-by", half));

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::reason)
                .containsExactly(Reason.DEADLINE_PASSED, Reason.OK);
        assertThat(ran).containsExactly(NINE, half);
        assertThat(f.outcomeLines())
                .filteredOn(l -> l.get("reason").asText().equals("DEADLINE_PASSED"))
                .extracting(l -> l.get("missed_count").asInt())
                .containsExactly(1, 0);
    }

    private static String replay(Instant from, Instant to, boolean force) {
        return "{\"kind\":\"replay\",\"job\":\"send-by\",\"from\":\"" + from + "\",\"to\":\"" + to + "\",\"max\":10"
                + (force ? ",\"force\":true" : "") + "}";
    }

    @Test
    void aReplay_recordsTheTooLateAsDeadlineSkips_andRunsThemOnlyWhenForced() {
        RuntimeFixture f = fixture(NINE.plus(Duration.ofHours(2)));
        Instant from = NINE;
        Instant to = NINE.plus(Duration.ofMinutes(30));

        InvocationResult refused = f.invoke(replay(from, to, false));

        assertThat(refused.occurrences())
                .extracting(OccurrenceReport::reason)
                .containsExactly(Reason.DEADLINE_PASSED, Reason.DEADLINE_PASSED);
        assertThat(ran).isEmpty();

        InvocationResult forced = f.invoke(replay(from, to, true));

        assertThat(forced.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.OK, Reason.OK);
        assertThat(ran).containsExactly(NINE, NINE.plus(Duration.ofMinutes(15)));
        assertThat(f.ledger.run(new RunKey("send-by", NINE)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
    }

    @Test
    void aManualRun_ofAnOccurrencePastItsDeadline_isNotJudged() {
        RuntimeFixture f = fixture(NINE.plus(Duration.ofHours(2)));

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"send-by\",\"at\":\"" + NINE + "\"}");

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
        assertThat(ran).containsExactly(NINE);
    }
}
