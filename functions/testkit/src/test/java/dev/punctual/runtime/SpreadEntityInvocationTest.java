package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.EntityJob;
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
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A spread entity's deliveries (decision 0030): its schedule fires its offset after each nominal
 * occurrence, and the runtime runs, keys and reports the nominal occurrence, once, with catch-up
 * over nominal occurrences.
 */
class SpreadEntityInvocationTest {

    private final List<JobContext> contexts = new CopyOnWriteArrayList<>();

    /** 09:00 in Paris on 30 November 2026 (CET, UTC+1): acme's nominal occurrence. */
    private static final Instant PARIS_NINE = Instant.parse("2026-11-30T08:00:00Z");

    /** acme's place in tenant-report's 10-minute window (SpreadTest pins it). */
    private static final Duration ACME_OFFSET = Duration.ofMinutes(9);

    private JobDefinition tenantReport() {
        return JobDefinition.builder("tenant-report")
                .schedule("0 9 * * *", "UTC")
                .perEntity(EntityJob.parameters().spreadOver(Duration.ofMinutes(10)))
                .job(services -> context -> {
                    contexts.add(context);
                    return JobResult.empty();
                })
                .build();
    }

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
                f -> JobCatalog.of(tenantReport(), nightly()));
    }

    private EntitySchedule acme() {
        return EntitySchedule.of(tenantReport(), "acme", null, "Europe/Paris", Map.of());
    }

    /** The scheduler's delivery of acme's schedule, fired at {@code fired}. */
    private String firedAt(Instant fired) {
        return RuntimeFixture.scheduled(acme(), fired);
    }

    @Test
    void aSpreadDelivery_runsTheNominalOccurrenceOnce_keyedAndReportedAtIt() {
        Instant fired = PARIS_NINE.plus(ACME_OFFSET);
        RuntimeFixture f = fixture(fired.plusSeconds(5));

        InvocationResult first = f.invoke(firedAt(fired));
        InvocationResult again = f.invoke(firedAt(fired));

        assertThat(acme().offsetMinutes()).isEqualTo(9);
        assertThat(first.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.OK);
            assertThat(o.occurrence()).isEqualTo(PARIS_NINE);
            assertThat(o.local().toString()).isEqualTo("2026-11-30T09:00+01:00[Europe/Paris]");
        });
        assertThat(again.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.ALREADY_DONE));
        assertThat(contexts).singleElement().satisfies(c -> {
            assertThat(c.occurrence()).isEqualTo(PARIS_NINE);
            assertThat(c.localOccurrence().getHour()).isEqualTo(9);
            assertThat(c.localOccurrence().getMinute()).isZero();
        });
        assertThat(f.ledger.run(new RunKey("tenant-report:acme", PARIS_NINE)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
        assertThat(f.ledger.run(new RunKey("tenant-report:acme", fired))).isEmpty();
        JsonNode line = f.outcomeLines().get(0);
        assertThat(line.path("occurrence").asText()).isEqualTo(PARIS_NINE.toString());
        // The run starts its offset after the occurrence, and its lateness says so.
        assertThat(line.path("lateness_ms").asLong()).isGreaterThanOrEqualTo(ACME_OFFSET.toMillis());
    }

    @Test
    void catchUp_replaysTheNominalOccurrencesMissed_afterASpreadDeliveryWasLost() {
        Instant dayTwo = PARIS_NINE.plus(Duration.ofDays(1));
        Instant dayThree = PARIS_NINE.plus(Duration.ofDays(2));
        RuntimeFixture f = fixture(PARIS_NINE.plus(ACME_OFFSET).plusSeconds(5));
        f.invoke(firedAt(PARIS_NINE.plus(ACME_OFFSET)));
        f.clock.advance(
                Duration.between(f.clock.peek(), dayThree.plus(ACME_OFFSET).plusSeconds(5)));

        // Day two's firing was lost; day three's arrives at its offset.
        InvocationResult result = f.invoke(firedAt(dayThree.plus(ACME_OFFSET)));

        assertThat(result.occurrences())
                .filteredOn(o -> o.verdict() == Verdict.PASS)
                .extracting(OccurrenceReport::occurrence)
                .containsExactly(dayTwo, dayThree);
        assertThat(f.ledger.cursor("tenant-report:acme")).contains(dayThree);
    }

    @Test
    void aFiringAtEitherInstantOfARepeatedLocalTime_runsTheNominalOccurrenceOnce() {
        // New York falls back on 2026-11-01: 01:00-01:59 happens twice. 01:30 + 9 = 01:39 in the same hour.
        EntitySchedule nightOwl = EntitySchedule.of(tenantReport(), "acme", "30 1 * * *", "America/New_York", Map.of());
        Instant laterFiring = Instant.parse("2026-11-01T06:39:00Z"); // 01:39 EST
        Instant earlierFiring = Instant.parse("2026-11-01T05:39:00Z"); // 01:39 EDT
        RuntimeFixture f = fixture(laterFiring.plusSeconds(5));

        InvocationResult later = f.invoke(RuntimeFixture.scheduled(nightOwl, laterFiring));
        InvocationResult earlier = f.invoke(RuntimeFixture.scheduled(nightOwl, earlierFiring));

        assertThat(nightOwl.offsetMinutes()).isEqualTo(9);
        assertThat(later.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.OK);
            assertThat(o.occurrence()).isEqualTo(Instant.parse("2026-11-01T05:30:00Z"));
        });
        assertThat(earlier.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.ALREADY_DONE));
        assertThat(contexts).hasSize(1);
    }

    @Test
    void aDeliveryAtTheNominalTime_isNotAnOccurrenceOfTheSpreadSchedule_andIsNotRun() {
        // Fired at 09:00 with offset 9, it stands for 08:51, which is no occurrence of 0 9 * * *.
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));

        InvocationResult result = f.invoke(firedAt(PARIS_NINE));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.NOT_AN_OCCURRENCE));
        assertThat(contexts).isEmpty();
    }

    @Test
    void anOffsetOutsideAnHour_isRefusedNamingOffsetMinutes_andWritesNothing() {
        Instant fired = PARIS_NINE.plus(ACME_OFFSET);
        RuntimeFixture f = fixture(fired.plusSeconds(5));

        InvocationResult result = f.invoke(firedAt(fired).replace("\"offset_minutes\":9", "\"offset_minutes\":60"));

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("WRONG_TYPE");
            assertThat(e.field()).isEqualTo("offset_minutes");
            assertThat(e.message()).contains("from 0 to 59");
        });
        assertThat(contexts).isEmpty();
        assertThat(f.ledger.run(new RunKey("tenant-report:acme", PARIS_NINE))).isEmpty();
    }
}
