package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Occurrences of a per-entity job (issue 21): each entity's delivery carries its own schedule, runs
 * once per (job, entity, occurrence), keeps its own cursor and catch-up, and is refused, writing
 * nothing, when its entity fields break the rules its put was checked by. Run on every ledger.
 */
public abstract class EntityInvocationContract {

    /** The ledger the runtime runs on, on the fixture's clock. */
    protected abstract RunLedger ledger(MutableClock clock);

    /** Every context the entity job ran with, in order. */
    private final List<JobContext> contexts = new CopyOnWriteArrayList<>();

    private JobDefinition tenantReport() {
        return JobDefinition.builder("tenant-report")
                .schedule("0 9 * * *", "UTC")
                .perEntity(EntityJob.parameters("locale"))
                .job(services -> context -> {
                    contexts.add(context);
                    return JobResult.of("entity", context.entity().orElseThrow().id());
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
                start, StageFlags.defaultsFor("dev"), this::ledger, f -> JobCatalog.of(tenantReport(), nightly()));
    }

    /** 09:00 in Paris on 30 November 2026 (CET, UTC+1). */
    private static final Instant PARIS_NINE = Instant.parse("2026-11-30T08:00:00Z");

    private String delivery(String entity, String zone, Map<String, Object> parameters, Instant at) {
        return RuntimeFixture.scheduled(EntitySchedule.of(tenantReport(), entity, null, zone, parameters), at);
    }

    @Test
    void anEntitysDelivery_runsTheJobForThatEntity_withItsParameters_inItsOwnZone() {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));

        InvocationResult result = f.invoke(delivery("acme", "Europe/Paris", Map.of("locale", "fr"), PARIS_NINE));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.OK);
            assertThat(o.job()).isEqualTo("tenant-report");
            assertThat(o.entity()).isEqualTo("acme");
            assertThat(o.local().toString()).isEqualTo("2026-11-30T09:00+01:00[Europe/Paris]");
        });
        assertThat(contexts).singleElement().satisfies(c -> {
            assertThat(c.jobId()).isEqualTo("tenant-report");
            assertThat(c.entity()).hasValueSatisfying(e -> {
                assertThat(e.id()).isEqualTo("acme");
                assertThat(e.parameter("locale")).contains("fr");
            });
            assertThat(c.localOccurrence().getHour()).isEqualTo(9);
        });
        assertThat(f.ledger.run(new RunKey("tenant-report:acme", PARIS_NINE)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
        assertThat(f.ledger.run(new RunKey("tenant-report", PARIS_NINE))).isEmpty();
    }

    @Test
    void theOutcomeLineAndTheResult_nameTheEntity_andTheMetricsDimensionsDoNot() {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));

        InvocationResult result = f.invoke(delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE));

        JsonNode line = f.outcomeLines().get(0);
        assertThat(line.path("job").asText()).isEqualTo("tenant-report");
        assertThat(line.path("entity").asText()).isEqualTo("acme");
        assertThat(line.toString()).doesNotContain("\"Dimensions\":[[\"stage\",\"entity\"");
        assertThat(ResultJson.tree(result).toString()).contains("entity=acme");
    }

    @Test
    void twoEntitiesDueAtTheSameInstant_eachRunOnce_andADuplicateDelivery_isAlreadyDone() {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));

        f.invoke(delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE));
        f.invoke(delivery("globex", "Europe/Paris", Map.of(), PARIS_NINE));
        InvocationResult again = f.invoke(delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE));

        assertThat(again.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.ALREADY_DONE));
        assertThat(contexts).extracting(c -> c.entity().orElseThrow().id()).containsExactly("acme", "globex");
    }

    @Test
    void theSameLocalTimeInAnotherZone_isAnotherInstant_andAnEntityFollowsOnlyItsOwn() {
        Instant tokyoNine = Instant.parse("2026-11-30T00:00:00Z");
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));

        InvocationResult tokyo = f.invoke(delivery("initech", "Asia/Tokyo", Map.of(), tokyoNine));
        InvocationResult wrongInstant = f.invoke(delivery("initech", "Asia/Tokyo", Map.of(), PARIS_NINE));

        assertThat(tokyo.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.verdict()).isEqualTo(Verdict.PASS));
        // 08:00Z is 17:00 in Tokyo: no occurrence of initech's 09:00, so it is recorded as such and not run.
        assertThat(wrongInstant.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.NOT_AN_OCCURRENCE));
        assertThat(contexts).hasSize(1);
    }

    @Test
    void catchUp_isPerEntity_oneEntitysOutageNeverReplaysAnother() {
        Instant dayOne = PARIS_NINE;
        Instant dayThree = PARIS_NINE.plus(Duration.ofDays(2));
        RuntimeFixture f = fixture(dayOne.plusSeconds(5));
        f.invoke(delivery("acme", "Europe/Paris", Map.of(), dayOne));
        f.invoke(delivery("globex", "Europe/Paris", Map.of(), dayOne));
        f.clock.advance(Duration.between(f.clock.peek(), dayThree.plusSeconds(5)));
        contexts.clear();

        // acme's day-two delivery was lost; globex's was not.
        f.invoke(delivery("globex", "Europe/Paris", Map.of(), dayOne.plus(Duration.ofDays(1))));
        InvocationResult acme = f.invoke(delivery("acme", "Europe/Paris", Map.of(), dayThree));

        assertThat(acme.occurrences())
                .filteredOn(o -> o.verdict() == Verdict.PASS)
                .extracting(OccurrenceReport::occurrence)
                .containsExactly(dayOne.plus(Duration.ofDays(1)), dayThree);
        assertThat(contexts)
                .extracting(c -> c.entity().orElseThrow().id() + "@" + c.occurrence())
                .containsExactly(
                        "globex@" + dayOne.plus(Duration.ofDays(1)),
                        "acme@" + dayOne.plus(Duration.ofDays(1)),
                        "acme@" + dayThree);
        assertThat(f.ledger.cursor("tenant-report:globex")).contains(dayOne.plus(Duration.ofDays(1)));
    }

    @Test
    void maintenanceOnTheJobsLockGroup_skipsEveryEntity_andRunsNone() {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));
        f.ledger.maintenanceOn(new MaintenanceRequest(
                List.of("tenant-report"),
                new MaintenanceHold("loading synthetic tenants", "ops", PARIS_NINE.plusSeconds(3600)),
                Duration.ZERO,
                Duration.ofMillis(100)));

        InvocationResult acme = f.invoke(delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE));
        InvocationResult globex = f.invoke(delivery("globex", "Europe/Paris", Map.of(), PARIS_NINE));

        assertThat(List.of(acme, globex))
                .allSatisfy(r -> assertThat(r.occurrences())
                        .singleElement()
                        .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.MAINTENANCE)));
        assertThat(contexts).isEmpty();
    }

    @Test
    void aDeliveryInFlightAfterTheEntitysDelete_isRecordedSkipEntityDeleted_neverRun_andTheLineNamesEntityAndReason() {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));
        f.ledger.tombstoneEntity("tenant-report:acme", "team-service");

        InvocationResult result = f.invoke(delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.ENTITY_DELETED);
            assertThat(o.verdict()).isEqualTo(Verdict.SKIP);
            assertThat(o.entity()).isEqualTo("acme");
        });
        assertThat(contexts).as("the job never ran").isEmpty();
        JsonNode line = f.outcomeLines().get(0);
        assertThat(line.path("entity").asText()).isEqualTo("acme");
        assertThat(line.path("reason").asText()).isEqualTo("ENTITY_DELETED");
        assertThat(f.ledger.run(new RunKey("tenant-report:acme", PARIS_NINE))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.SKIPPED);
            assertThat(r.reason()).startsWith("ENTITY_DELETED").contains("team-service");
        });
    }

    @Test
    void afterAPutAgain_theEntitysNextOccurrenceRuns_andAnotherEntityWasNeverRefused() {
        Instant dayTwo = PARIS_NINE.plus(Duration.ofDays(1));
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));
        f.invoke(delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE));
        f.ledger.tombstoneEntity("tenant-report:acme", "team-service");
        InvocationResult refused = f.invoke(delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE));
        InvocationResult globex = f.invoke(delivery("globex", "Europe/Paris", Map.of(), PARIS_NINE));
        f.ledger.clearEntityTombstone("tenant-report:acme");
        f.clock.advance(Duration.between(f.clock.peek(), dayTwo.plusSeconds(5)));

        InvocationResult next = f.invoke(delivery("acme", "Europe/Paris", Map.of(), dayTwo));

        assertThat(refused.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.ENTITY_DELETED));
        assertThat(globex.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
        assertThat(next.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.OK));
        assertThat(contexts)
                .extracting(c -> c.entity().orElseThrow().id() + "@" + c.occurrence())
                .containsExactly("acme@" + PARIS_NINE, "globex@" + PARIS_NINE, "acme@" + dayTwo);
        assertThat(f.ledger.run(new RunKey("tenant-report:acme", PARIS_NINE)))
                .as("the run item of the run before the delete stays")
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
    }

    /**
     * A put again resumes at the entity's cursor: an occurrence refused while the entity was deleted is
     * after it, so the next delivery's catch-up replays it within the job's bounds, as after any outage.
     */
    @Test
    void anOccurrenceRefusedWhileDeleted_isReplayedByTheCatchUpAfterAPutAgain_withinTheJobsBounds() {
        Instant dayTwo = PARIS_NINE.plus(Duration.ofDays(1));
        Instant dayThree = PARIS_NINE.plus(Duration.ofDays(2));
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));
        f.invoke(delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE));
        f.ledger.tombstoneEntity("tenant-report:acme", "team-service");
        f.clock.advance(Duration.between(f.clock.peek(), dayTwo.plusSeconds(5)));
        InvocationResult refused = f.invoke(delivery("acme", "Europe/Paris", Map.of(), dayTwo));
        f.ledger.clearEntityTombstone("tenant-report:acme");
        f.clock.advance(Duration.between(f.clock.peek(), dayThree.plusSeconds(5)));
        contexts.clear();

        InvocationResult next = f.invoke(delivery("acme", "Europe/Paris", Map.of(), dayThree));

        assertThat(refused.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.ENTITY_DELETED));
        assertThat(next.occurrences())
                .filteredOn(o -> o.verdict() == Verdict.PASS)
                .extracting(OccurrenceReport::occurrence)
                .containsExactly(dayTwo, dayThree);
        assertThat(contexts).hasSize(2);
    }

    @Test
    void twelveConcurrentDeliveriesOfOneEntityOccurrence_giveOneSuccess() throws Exception {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));
        String payload = delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE);
        ExecutorService pool = Executors.newFixedThreadPool(12);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<InvocationResult>> results = new ArrayList<>();
        try {
            for (int i = 0; i < 12; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return f.runtime.handle(payload, f.deadline(), f.log());
                }));
            }
            start.countDown();
            List<OccurrenceReport> reports = new ArrayList<>();
            for (Future<InvocationResult> r : results) {
                reports.addAll(r.get(5, java.util.concurrent.TimeUnit.MINUTES).occurrences());
            }
            assertThat(reports).hasSize(12);
            assertThat(reports).filteredOn(o -> o.verdict() == Verdict.PASS).hasSize(1);
            // The other eleven found the run done, or running elsewhere, or the entity's lease held by it.
            assertThat(reports)
                    .filteredOn(o -> o.verdict() != Verdict.PASS)
                    .hasSize(11)
                    .allSatisfy(o -> {
                        assertThat(o.verdict()).isEqualTo(Verdict.SKIP);
                        assertThat(o.reason())
                                .isIn(Reason.ALREADY_DONE, Reason.IN_PROGRESS_ELSEWHERE, Reason.LOCK_BUSY);
                    });
        } finally {
            pool.shutdownNow();
        }
        assertThat(contexts).hasSize(1);
        assertThat(f.ledger.run(new RunKey("tenant-report:acme", PARIS_NINE))).hasValueSatisfying(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(r.attempts()).isEqualTo(1);
        });
    }

    @Test
    void aDeliveryWithAParameterTheJobDoesNotDeclare_isRefusedNamingIt_andWritesNothing() {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));
        String payload = delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE)
                .replace("\"zone\":\"Europe/Paris\"", "\"zone\":\"Europe/Paris\",\"parameters\":{\"locael\":\"fr\"}");

        InvocationResult result = f.invoke(payload);

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("BAD_ENTITY");
            assertThat(e.field()).isEqualTo("parameters.locael");
            assertThat(e.message()).contains("accepted: locale", "did you mean locale?");
        });
        assertThat(contexts).isEmpty();
        assertThat(f.ledger.run(new RunKey("tenant-report:acme", PARIS_NINE))).isEmpty();
    }

    @Test
    void aDeliveryWithoutTheEntitysZone_isRefused_forThereIsNoDefaultZone() {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));
        String payload =
                delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE).replace(",\"zone\":\"Europe/Paris\"", "");

        InvocationResult result = f.invoke(payload);

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("MISSING_FIELD");
            assertThat(e.field()).isEqualTo("zone");
        });
        assertThat(contexts).isEmpty();
    }

    @Test
    void aDeliveryWithABadEntityId_isRefusedNamingTheEntityField() {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));
        String payload = delivery("acme", "Europe/Paris", Map.of(), PARIS_NINE)
                .replace("\"entity\":\"acme\"", "\"entity\":\"a/b\"");

        InvocationResult result = f.invoke(payload);

        assertThat(result.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("BAD_ENTITY");
            assertThat(e.field()).isEqualTo("entity");
        });
    }

    @Test
    void aPerEntityJobsDeliveryWithoutAnEntity_isRefused_andAJobWithOneSchedule_refusesEntityFields() {
        RuntimeFixture f = fixture(PARIS_NINE.plusSeconds(5));

        InvocationResult noEntity = f.invoke(scheduled("tenant-report", PARIS_NINE));
        InvocationResult entityForNightly = f.invoke(scheduled("nightly", Instant.parse("2026-11-30T02:00:00Z"))
                .replace("{\"kind\":\"scheduled\",", "{\"kind\":\"scheduled\",\"entity\":\"acme\","));

        assertThat(noEntity.error())
                .hasValueSatisfying(e -> assertThat(e.field()).isEqualTo("entity"));
        assertThat(entityForNightly.error()).hasValueSatisfying(e -> {
            assertThat(e.code()).isEqualTo("UNKNOWN_FIELD");
            assertThat(e.field()).isEqualTo("entity");
            assertThat(e.message()).contains("nightly has one schedule of its own");
        });
        assertThat(contexts).isEmpty();
    }

    private static String scheduled(String job, Instant at) {
        return RuntimeFixture.scheduled(job, at);
    }
}
