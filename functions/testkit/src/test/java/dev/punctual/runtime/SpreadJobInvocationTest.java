package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunStatus;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A spread job's deliveries (decision 0035): its one schedule fires its offset after each occurrence,
 * the input carries the offset, and the runtime runs, keys and reports the occurrence itself; the
 * watchdog gives it the same grace after its firing as any job after its occurrence.
 */
class SpreadJobInvocationTest {

    private static final Instant NINE = Instant.parse("2026-11-30T09:00:00Z");

    private final List<JobContext> contexts = new CopyOnWriteArrayList<>();

    /** A daily 09:00 UTC job spread over an hour, with an id whose offset is late in the hour. */
    private JobDefinition report() {
        return JobDefinition.builder(LATE_ID)
                .schedule("0 9 * * *", "UTC")
                .spreadOver(Duration.ofHours(1))
                .job(services -> context -> {
                    contexts.add(context);
                    return JobResult.empty();
                })
                .build();
    }

    /**
     * The first id of the form report-N whose place in an hour's window is at least 50 minutes: found by
     * the spread's own hash, so the watchdog case below has a firing close to the watchdog's grace.
     */
    private static final String LATE_ID = IntStream.range(0, 1_000)
            .mapToObj(i -> "report-" + i)
            .filter(id -> new dev.punctual.time.Spread(Duration.ofHours(1)).offsetMinutes(id) >= 50)
            .findFirst()
            .orElseThrow();

    private static JobDefinition nightly() {
        return JobDefinition.builder("nightly")
                .schedule("0 2 * * *", "UTC")
                .job(services -> context -> JobResult.empty())
                .build();
    }

    private RuntimeFixture fixture(Instant start) {
        return new RuntimeFixture(
                start,
                StageFlags.defaultsFor("dev"),
                RuntimeFixture::inMemory,
                f -> Catalogs.withBuiltIns(JobCatalog.of(report(), nightly())));
    }

    private Duration offset() {
        return Duration.ofMinutes(report().offsetMinutes());
    }

    /** The scheduler's delivery of the job's schedule, fired at {@code fired}, with the input it was deployed with. */
    private String firedAt(Instant fired) {
        return RuntimeFixture.scheduled(LATE_ID, fired)
                .replace(
                        "{\"kind\":\"scheduled\",",
                        "{\"kind\":\"scheduled\",\"offset_minutes\":" + report().offsetMinutes() + ",");
    }

    @Test
    void theDeployedScheduleAndInput_fireAtTheOffsetAndCarryIt() {
        JobDefinition job = report();

        assertThat(job.offsetMinutes()).isBetween(50, 59);
        assertThat(job.deployment().expression()).isEqualTo("cron(" + job.offsetMinutes() + " 9 * * ? *)");
        assertThat(ScheduledPayload.forJob(job.id(), job.offsetMinutes()))
                .containsEntry(ScheduledPayload.OFFSET_MINUTES, job.offsetMinutes());
        assertThat(ScheduledPayload.forJob("nightly", 0)).doesNotContainKey(ScheduledPayload.OFFSET_MINUTES);
    }

    @Test
    void aDeliveryAtItsFiring_runsTheOccurrenceOnce_keyedAndReportedAtIt() {
        Instant fired = NINE.plus(offset());
        RuntimeFixture f = fixture(fired.plusSeconds(5));

        InvocationResult first = f.invoke(firedAt(fired));
        InvocationResult again = f.invoke(firedAt(fired));

        assertThat(first.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.OK);
            assertThat(o.occurrence()).isEqualTo(NINE);
        });
        assertThat(again.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.ALREADY_DONE));
        assertThat(contexts)
                .singleElement()
                .satisfies(c -> assertThat(c.occurrence()).isEqualTo(NINE));
        assertThat(f.ledger.run(new RunKey(LATE_ID, NINE)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
        assertThat(f.ledger.run(new RunKey(LATE_ID, fired))).isEmpty();
        assertThat(f.outcomeLines().get(0).path("lateness_ms").asLong())
                .as("it starts its offset after the occurrence, and its lateness says so")
                .isGreaterThanOrEqualTo(offset().toMillis());
    }

    @Test
    void aDeliveryAtTheOccurrenceWithTheOffset_isNotAnOccurrence_andIsNotRun() {
        RuntimeFixture f = fixture(NINE.plusSeconds(5));

        InvocationResult result = f.invoke(firedAt(NINE));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.NOT_AN_OCCURRENCE));
        assertThat(contexts).isEmpty();
    }

    @Test
    void catchUp_replaysTheOccurrencesMissed_afterASpreadDeliveryWasLost() {
        Instant dayTwo = NINE.plus(Duration.ofDays(1));
        Instant dayThree = NINE.plus(Duration.ofDays(2));
        RuntimeFixture f = fixture(NINE.plus(offset()).plusSeconds(5));
        f.invoke(firedAt(NINE.plus(offset())));
        f.clock.advance(Duration.between(f.clock.peek(), dayThree.plus(offset()).plusSeconds(5)));

        InvocationResult result = f.invoke(firedAt(dayThree.plus(offset())));

        assertThat(result.occurrences())
                .filteredOn(o -> o.verdict() == Verdict.PASS)
                .extracting(OccurrenceReport::occurrence)
                .containsExactly(dayTwo, dayThree);
        assertThat(f.ledger.cursor(LATE_ID)).contains(dayThree);
    }

    @Test
    void aJobWithoutSpread_takesTheOffsetItsInputCarries_byTheSameRule() {
        // After spreadOver is removed, the old schedule may still fire once with its offset: 02:03 is 02:00.
        Instant two = Instant.parse("2026-11-30T02:00:00Z");
        RuntimeFixture f = fixture(two.plusSeconds(200));

        InvocationResult shifted = f.invoke(RuntimeFixture.scheduled("nightly", two.plusSeconds(180))
                .replace("{\"kind\":\"scheduled\",", "{\"kind\":\"scheduled\",\"offset_minutes\":3,"));

        assertThat(shifted.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.OK);
            assertThat(o.occurrence()).isEqualTo(two);
        });
    }

    @Test
    void theWatchdog_givesASpreadJobItsGraceAfterItsFiring_andReportsADayNeverDeliveredOnce() {
        // Day one fires at its offset and the scheduler's retries bring it 30 minutes later still: past
        // the occurrence's hour of grace, within the firing's. Day two is never delivered.
        Instant late = NINE.plus(offset()).plus(Duration.ofMinutes(30));
        Instant dayZero = NINE.minus(Duration.ofDays(1));
        RuntimeFixture f = fixture(dayZero.plus(offset()).plusSeconds(5));
        // Delivered the day before, the job has a cursor: a job that never ran is judged from its go-live.
        f.invoke(firedAt(dayZero.plus(offset())));

        for (Instant at = NINE.minus(Duration.ofMinutes(53));
                at.isBefore(NINE.plus(Duration.ofDays(2)));
                at = at.plus(Duration.ofHours(1))) {
            if (!late.isAfter(at) && late.isAfter(at.minus(Duration.ofHours(1)))) {
                // A retry carries the firing's scheduled time; it only arrives later.
                f.clock.advance(Duration.between(f.clock.peek(), late));
                f.invoke(firedAt(NINE.plus(offset())));
            }
            f.clock.advance(Duration.between(f.clock.peek(), at.plusSeconds(3)));
            f.invoke(RuntimeFixture.scheduled(MissedRunWatchdog.ID, at));
        }

        assertThat(f.events.stream()
                        .filter(LifecycleEvent.OccurrenceOverdue.class::isInstance)
                        .map(LifecycleEvent.OccurrenceOverdue.class::cast)
                        .filter(e -> e.job().equals(LATE_ID))
                        .map(e -> e.occurrence().toInstant()))
                .containsExactly(NINE.plus(Duration.ofDays(1)));
        assertThat(contexts).extracting(JobContext::occurrence).containsExactly(dayZero, NINE);
    }
}
