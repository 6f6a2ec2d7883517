package dev.punctual.runtime;

import static dev.punctual.runtime.RuntimeFixture.scheduled;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.json.Json;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.testkit.InMemoryLedgerStore;
import dev.punctual.ledger.testkit.InMemoryRunLedger;
import dev.punctual.stage.StageFlags;
import dev.punctual.time.OccurrenceCalculator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The watchdog's entity watch (decision 0031), by the runtime on the in-memory ledger and its due index,
 * with a moved clock: an entity whose delivery never came is reported once, naming job and entity; one
 * that was delivered, or skipped with a record, is not; the watchdog reads the candidates the index
 * lists, not every entity.
 */
class EntityWatchdogTest {

    private static final Instant DAY1 = Instant.parse("2026-11-30T09:00:00Z");
    private static final Instant DAY2 = DAY1.plus(Duration.ofDays(1));

    private final InMemoryLedgerStore store = new InMemoryLedgerStore();

    private static JobDefinition tenantReport() {
        return JobDefinition.builder("tenant-report")
                .schedule("0 9 * * *", "UTC")
                .perEntity(EntityJob.parameters("locale"))
                .job(s -> ctx -> JobResult.empty())
                .build();
    }

    private RuntimeFixture stage() {
        return new RuntimeFixture(
                DAY1.plusSeconds(3),
                StageFlags.defaultsFor("dev"),
                clock -> InMemoryRunLedger.create(clock, store),
                f -> Catalogs.withBuiltIns(JobCatalog.of(tenantReport())),
                store.dueIndex());
    }

    private static String delivery(String entity, Instant at) {
        return scheduled(EntitySchedule.of(tenantReport(), entity, null, "UTC", Map.of()), at);
    }

    private static void watchHourly(RuntimeFixture f, Instant first, Instant last) {
        for (Instant at = first; !at.isAfter(last); at = at.plus(Duration.ofHours(1))) {
            f.clock.advance(Duration.between(f.clock.peek(), at.plusSeconds(3)));
            f.invoke(scheduled(MissedRunWatchdog.ID, at));
        }
    }

    private static List<LifecycleEvent.OccurrenceOverdue> overdue(RuntimeFixture f) {
        return f.events.stream()
                .filter(LifecycleEvent.OccurrenceOverdue.class::isInstance)
                .map(LifecycleEvent.OccurrenceOverdue.class::cast)
                .toList();
    }

    /** Day 1: three entities delivered; day 2: acme delivered, globex skipped under maintenance, initech lost. */
    private RuntimeFixture dayTwoWithOneDeliveryLost() {
        RuntimeFixture f = stage();
        for (String entity : List.of("acme", "globex", "initech")) {
            f.invoke(delivery(entity, DAY1));
        }
        f.clock.advance(Duration.between(f.clock.peek(), DAY2.plusSeconds(3)));
        f.invoke(delivery("acme", DAY2));
        f.ledger.maintenanceOn(new MaintenanceRequest(
                List.of("tenant-report"),
                new MaintenanceHold("restore", "ops", DAY2.plusSeconds(600)),
                Duration.ZERO,
                Duration.ofMillis(10)));
        f.invoke(delivery("globex", DAY2)); // SKIP MAINTENANCE: delivered, recorded, not run
        f.ledger.maintenanceOff(List.of("tenant-report"));
        return f;
    }

    @Test
    void entityWhoseDeliveryNeverCame_isReportedOnce_namingJobAndEntity_overADayOfHourlyChecks() {
        RuntimeFixture f = dayTwoWithOneDeliveryLost();

        watchHourly(
                f,
                DAY2.minus(Duration.ofMinutes(113)),
                DAY2.plus(Duration.ofHours(23)).plus(Duration.ofMinutes(7)));

        assertThat(overdue(f)).hasSize(1);
        LifecycleEvent.OccurrenceOverdue event = overdue(f).get(0);
        assertThat(event.detail())
                .containsEntry("job", "tenant-report")
                .containsEntry("entity", "initech")
                .containsEntry("occurrence", DAY2.toString())
                .containsEntry("reason", MissedRunWatchdog.NOT_DELIVERED);
        List<JsonNode> warned = warnings(f);
        assertThat(warned).hasSize(1);
        assertThat(warned.get(0).path("entity").asText()).isEqualTo("initech");
        assertThat(warned.get(0).path("job").asText()).isEqualTo("tenant-report");
        assertThat(warned.get(0).path("Overdue").asInt()).isEqualTo(1);
    }

    @Test
    void deliveredAndSkippedEntities_areNotReported_andOnlyTheIndexsCandidatesAreConfirmed() throws Exception {
        RuntimeFixture f = dayTwoWithOneDeliveryLost();

        watchHourly(f, DAY2.plus(Duration.ofMinutes(67)), DAY2.plus(Duration.ofMinutes(67)));

        Map<?, ?> summary = (Map<?, ?>) Json.read(f.ledger
                .run(new RunKey(MissedRunWatchdog.ID, DAY2.plus(Duration.ofMinutes(67))))
                .orElseThrow()
                .resultSummary());
        // acme's completion moved it on to day 3; globex (its skip has no completion) and initech stay listed.
        assertThat(((Number) summary.get("entity_candidates")).intValue()).isEqualTo(2);
        assertThat(((Number) summary.get("entities_overdue")).intValue()).isEqualTo(1);
        assertThat(overdue(f)).extracting(e -> e.detail().get("entity")).containsExactly("initech");
    }

    @Test
    void entityThatCaughtUpAtItsNextDelivery_isNotReportedAgain_theWindowHasMovedOn() {
        RuntimeFixture f = dayTwoWithOneDeliveryLost();
        Instant day3 = DAY2.plus(Duration.ofDays(1));
        watchHourly(f, DAY2.plus(Duration.ofMinutes(67)), day3.minus(Duration.ofMinutes(53)));
        f.clock.advance(Duration.between(f.clock.peek(), day3.plusSeconds(3)));
        for (String entity : List.of("acme", "globex", "initech")) {
            f.invoke(delivery(entity, day3)); // initech catches up day 2, then runs day 3
        }

        watchHourly(f, day3.plus(Duration.ofMinutes(7)), day3.plus(Duration.ofMinutes(187)));

        assertThat(overdue(f)).extracting(e -> e.detail().get("entity")).containsExactly("initech");
    }

    private static List<JsonNode> warnings(RuntimeFixture f) {
        List<JsonNode> out = new ArrayList<>();
        for (String line : f.lines) {
            try {
                JsonNode node = RuntimeFixture.JSON.readTree(line);
                if (MissedRunWatchdog.OVERDUE_MESSAGE.equals(
                        node.path("message").asText())) {
                    out.add(node);
                }
            } catch (java.io.IOException e) {
                throw new AssertionError(line, e);
            }
        }
        return out;
    }

    private static JobDefinition spreadReport() {
        return JobDefinition.builder("spread-report")
                .schedule("0 9 * * *", "UTC")
                .perEntity(EntityJob.parameters().spreadOver(Duration.ofMinutes(60)))
                .job(s -> ctx -> JobResult.empty())
                .build();
    }

    @Test
    void aSpreadEntityDeliveredLateWithinItsOffsetAndGrace_isNotReported_whileALostOneIsReportedOnce() {
        RuntimeFixture f = new RuntimeFixture(
                DAY1.plusSeconds(3),
                StageFlags.defaultsFor("dev"),
                clock -> InMemoryRunLedger.create(clock, store),
                fixture -> Catalogs.withBuiltIns(JobCatalog.of(spreadReport())),
                store.dueIndex());
        // Two entities the spread puts at least half an hour after 09:00 (offsets are a hash of the ids).
        List<EntitySchedule> late = new ArrayList<>();
        for (int i = 0; late.size() < 2; i++) {
            EntitySchedule candidate = EntitySchedule.of(spreadReport(), "tenant-" + i, null, "UTC", Map.of());
            if (candidate.offsetMinutes() >= 30) {
                late.add(candidate);
            }
        }
        EntitySchedule delivered = late.get(0);
        EntitySchedule lost = late.get(1);
        for (EntitySchedule entity : late) {
            Instant fired = DAY1.plus(Duration.ofMinutes(entity.offsetMinutes()));
            f.clock.advance(Duration.between(f.clock.peek(), fired.plusSeconds(3)));
            f.invoke(scheduled(entity, fired));
        }
        // Day 2: the first entity's firing comes 45 minutes late (a scheduler retry, within its event age),
        // more than an hour after the nominal 09:00; the second's never comes.
        Instant retried = DAY2.plus(Duration.ofMinutes(delivered.offsetMinutes() + 45));
        watchHourly(f, DAY2.plus(Duration.ofMinutes(67)), DAY2.plus(Duration.ofMinutes(67)));
        f.clock.advance(Duration.between(f.clock.peek(), retried.plusSeconds(3)));
        f.invoke(scheduled(delivered, DAY2.plus(Duration.ofMinutes(delivered.offsetMinutes()))));
        watchHourly(f, DAY2.plus(Duration.ofMinutes(127)), DAY2.plus(Duration.ofHours(5)));

        assertThat(overdue(f))
                .extracting(e -> e.detail().get("entity"))
                .as("only the entity whose delivery never came")
                .containsExactly(lost.entity());
    }

    @Test
    void aDeletedEntity_isNotReported_thoughTheIndexStillListsIt() {
        RuntimeFixture f = dayTwoWithOneDeliveryLost();
        // initech's delivery never came because it was deleted (the delete's tombstone, decision 0029, 8).
        f.ledger.tombstoneEntity("tenant-report:initech", "onboarding");

        watchHourly(
                f,
                DAY2.minus(Duration.ofMinutes(113)),
                DAY2.plus(Duration.ofHours(23)).plus(Duration.ofMinutes(7)));

        assertThat(overdue(f)).isEmpty();
    }

    @Test
    void anEntityPutButNeverDelivered_isReportedOnce_fromThePutsNote() {
        RuntimeFixture f = stage();
        // The put's note (EntitySchedules.put): newco has no run item and no cursor, only its next 09:00.
        f.ledger.noteEntityDue(
                "tenant-report:newco", OccurrenceCalculator.of(tenantReport().schedule())::next);

        watchHourly(f, DAY1.plus(Duration.ofMinutes(7)), DAY2.plus(Duration.ofHours(3)));

        assertThat(overdue(f)).extracting(e -> e.detail().get("entity")).containsExactly("newco");
        assertThat(overdue(f).get(0).detail()).containsEntry("occurrence", DAY2.toString());
    }
}
