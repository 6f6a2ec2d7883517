package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.events.LifecycleEvent;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.outcome.Reason;
import dev.punctual.stage.StageFlags;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * An RRULE job deployed as its containing cron (decision 0049): the cron's firings that are not occurrences
 * of the rule (the other weeks of INTERVAL=2, the weeks after a COUNT) are answered with one log line and no
 * ledger request; catch-up, replay and the watchdog follow the rule, never the cron; an entity's RRULE goes
 * the same way. Run on every ledger.
 */
public abstract class RecurrenceDeliveryContract {

    /** The ledger the runtime runs on, on the fixture's clock. */
    protected abstract RunLedger ledger(MutableClock clock);

    private final List<String> ran = new CopyOnWriteArrayList<>();

    /** Every other Monday 09:00 in Berlin from 4 January 2027; deployed as cron(0 9 ? * MON 2027-2199). */
    private static final String FORTNIGHTLY = "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO";

    /** 09:00 Berlin (CET) on the Mondays of January and February 2027. */
    private static final Instant JAN_04 = Instant.parse("2027-01-04T08:00:00Z");

    private static final Instant JAN_11 = Instant.parse("2027-01-11T08:00:00Z");
    private static final Instant JAN_18 = Instant.parse("2027-01-18T08:00:00Z");
    private static final Instant JAN_25 = Instant.parse("2027-01-25T08:00:00Z");
    private static final Instant FEB_01 = Instant.parse("2027-02-01T08:00:00Z");

    private JobDefinition job(String id, String rule) {
        return JobDefinition.builder(id)
                .schedule(rule, "Europe/Berlin")
                .catchUp(CatchUpPolicy.oldestFirst(3, Duration.ofDays(45)))
                .job(services -> context -> {
                    ran.add(id + "@" + context.occurrence());
                    return JobResult.empty();
                })
                .build();
    }

    private JobDefinition perEntity() {
        return JobDefinition.builder("statement")
                .schedule("0 9 * * *", "UTC")
                .catchUp(CatchUpPolicy.oldestFirst(3, Duration.ofDays(45)))
                .perEntity(EntityJob.parameters())
                .job(services -> context -> {
                    ran.add("statement:" + context.entity().orElseThrow().id() + "@" + context.occurrence());
                    return JobResult.empty();
                })
                .build();
    }

    private JobCatalog catalog() {
        return JobCatalog.of(
                job("fortnightly", FORTNIGHTLY),
                job("twice", "DTSTART:20270104T090000 RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=2"),
                perEntity());
    }

    private RuntimeFixture fixture(Instant start) {
        return new RuntimeFixture(start, StageFlags.defaultsFor("dev"), this::ledger, f -> catalog());
    }

    private static InvocationResult deliver(RuntimeFixture f, String job, Instant at) {
        f.clock.advance(Duration.between(f.clock.peek(), at.plusSeconds(2)));
        return f.invoke(RuntimeFixture.scheduled(job, at));
    }

    private static List<JsonNode> linesWithMessage(RuntimeFixture f, String message) {
        return f.lines.stream()
                .map(line -> {
                    try {
                        return RuntimeFixture.JSON.readTree(line);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .filter(node -> message.equals(node.path("message").asText()))
                .toList();
    }

    @Test
    void theContainingCronsOtherMonday_isAnsweredOutsideRule_withOneLogLine_andNoLedgerRequest() {
        RuntimeFixture f = fixture(JAN_04);
        deliver(f, "fortnightly", JAN_04);
        int callsBefore = f.ledgerCalls.size();
        int outcomesBefore = f.outcomeLines().size();

        InvocationResult result = deliver(f, "fortnightly", JAN_11);

        assertThat(result.valid()).isTrue();
        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.occurrence()).isEqualTo(JAN_11);
            assertThat(o.reason()).isEqualTo(Reason.OUTSIDE_RULE);
            assertThat(o.attempt()).isZero();
            assertThat(o.detail())
                    .contains(
                            "cron(0 9 ? * MON 2027-2199) in Europe/Berlin",
                            "not an occurrence of its rule",
                            JAN_04.toString(),
                            JAN_18.toString());
        });
        assertThat(f.ledgerCalls.subList(callsBefore, f.ledgerCalls.size()))
                .as("ledger requests for a firing the rule leaves out")
                .isEmpty();
        assertThat(f.outcomeLines()).as("no outcome line, so no metrics").hasSize(outcomesBefore);
        assertThat(linesWithMessage(f, "outside_rule")).singleElement().satisfies(line -> {
            assertThat(line.path("job").asText()).isEqualTo("fortnightly");
            assertThat(line.path("reason").asText()).isEqualTo("OUTSIDE_RULE");
            assertThat(line.path("scheduled_time").asText()).isEqualTo(JAN_11.toString());
        });
        assertThat(f.ledger.run(new RunKey("fortnightly", JAN_11))).isEmpty();
        assertThat(f.ledger.cursor("fortnightly")).contains(JAN_04);
        assertThat(ran).containsExactly("fortnightly@" + JAN_04);
    }

    @Test
    void theNextOccurrenceOfTheRule_runs_andCatchesUpNothing_becauseTheCronsOtherMondayWasNoOccurrence() {
        RuntimeFixture f = fixture(JAN_04);
        deliver(f, "fortnightly", JAN_04);
        deliver(f, "fortnightly", JAN_11);

        InvocationResult result = deliver(f, "fortnightly", JAN_18);

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(tuple(JAN_18, Reason.OK));
        assertThat(result.missed()).isEmpty();
        assertThat(ran).containsExactly("fortnightly@" + JAN_04, "fortnightly@" + JAN_18);
    }

    @Test
    void catchUp_replaysTheRulesMissedOccurrence_notTheCronsMondaysBetween() {
        RuntimeFixture f = fixture(JAN_04);
        deliver(f, "fortnightly", JAN_04);

        // 11, 18 and 25 January were never delivered; 1 February is.
        InvocationResult result = deliver(f, "fortnightly", FEB_01);

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(tuple(JAN_18, Reason.OK), tuple(FEB_01, Reason.OK));
        assertThat(ran).containsExactly("fortnightly@" + JAN_04, "fortnightly@" + JAN_18, "fortnightly@" + FEB_01);
        assertThat(f.ledger.run(new RunKey("fortnightly", JAN_11))).isEmpty();
        assertThat(f.ledger.run(new RunKey("fortnightly", JAN_25))).isEmpty();
    }

    @Test
    void aReplayOfAMonth_runsTheRulesOccurrencesOnly() {
        RuntimeFixture f = fixture(FEB_01.plusSeconds(60));

        InvocationResult result =
                f.invoke("{\"kind\":\"replay\",\"job\":\"fortnightly\",\"from\":\"2027-01-01T00:00:00Z\","
                        + "\"to\":\"2027-02-01T00:00:00Z\"}");

        assertThat(result.occurrences())
                .extracting(OccurrenceReport::occurrence, OccurrenceReport::reason)
                .containsExactly(tuple(JAN_04, Reason.OK), tuple(JAN_18, Reason.OK));
    }

    @Test
    void anOperatorsRunAtTheCronsOtherMonday_isRefused_asNoOccurrence() {
        RuntimeFixture f = fixture(JAN_11.plusSeconds(60));

        InvocationResult result = f.invoke("{\"kind\":\"run\",\"job\":\"fortnightly\",\"at\":\"" + JAN_11 + "\"}");

        assertThat(result.valid()).isFalse();
        assertThat(ran).isEmpty();
    }

    @Test
    void afterACountEnded_theCronsNextMonday_isOutsideRule_andWritesNothing() {
        RuntimeFixture f = fixture(JAN_04);
        deliver(f, "twice", JAN_04);
        deliver(f, "twice", JAN_11);
        int callsBefore = f.ledgerCalls.size();

        InvocationResult result = deliver(f, "twice", JAN_18);

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.OUTSIDE_RULE);
            assertThat(o.detail()).contains("cron(0 9 ? * MON 2027)", "nearest: " + JAN_11);
        });
        assertThat(f.ledgerCalls.subList(callsBefore, f.ledgerCalls.size())).isEmpty();
        assertThat(ran).containsExactly("twice@" + JAN_04, "twice@" + JAN_11);
    }

    @Test
    void aTimeTheContainingCronDoesNotFireAtEither_isStillRecordedAsNotAnOccurrence() {
        RuntimeFixture f = fixture(JAN_04);
        deliver(f, "fortnightly", JAN_04);
        Instant tenOClock = JAN_11.plus(Duration.ofHours(1)); // a replaced schedule's late delivery

        InvocationResult result = deliver(f, "fortnightly", tenOClock);

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.NOT_AN_OCCURRENCE));
        assertThat(f.ledger.run(new RunKey("fortnightly", tenOClock)))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SKIPPED));
    }

    @Test
    void anEntitysRrule_isAnsweredTheSameWay_forItsOwnContainingCron() {
        RuntimeFixture f = fixture(JAN_04);
        EntitySchedule acme = EntitySchedule.of(perEntity(), "acme", FORTNIGHTLY, "Europe/Berlin", Map.of());

        f.clock.advance(Duration.between(f.clock.peek(), JAN_04.plusSeconds(2)));
        InvocationResult first = f.invoke(RuntimeFixture.scheduled(acme, JAN_04));
        f.clock.advance(Duration.between(f.clock.peek(), JAN_11.plusSeconds(2)));
        int callsBefore = f.ledgerCalls.size();
        InvocationResult other = f.invoke(RuntimeFixture.scheduled(acme, JAN_11));

        assertThat(acme.deployment().expression()).isEqualTo("cron(0 9 ? * MON 2027-2199)");
        assertThat(first.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.OK);
        assertThat(other.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.OUTSIDE_RULE);
            assertThat(o.entity()).isEqualTo("acme");
        });
        assertThat(f.ledgerCalls.subList(callsBefore, f.ledgerCalls.size())).isEmpty();
        assertThat(ran).containsExactly("statement:acme@" + JAN_04);
    }

    @Test
    void theWatchdog_neverReportsTheCronsOtherMondays_butReportsAnOccurrenceOfTheRuleNeverDelivered() {
        RuntimeFixture f = new RuntimeFixture(
                JAN_04,
                StageFlags.defaultsFor("dev"),
                this::ledger,
                x -> Catalogs.withBuiltIns(JobCatalog.of(job("fortnightly", FORTNIGHTLY))));
        deliver(f, "fortnightly", JAN_04);

        // Hourly watchdog runs to 20 January; 11 January (no occurrence) and 18 January (one) are not delivered.
        for (Instant at = JAN_04.plus(Duration.ofMinutes(7));
                at.isBefore(Instant.parse("2027-01-20T00:00:00Z"));
                at = at.plus(Duration.ofHours(1))) {
            f.clock.advance(Duration.between(f.clock.peek(), at.plusSeconds(3)));
            f.invoke(RuntimeFixture.scheduled(MissedRunWatchdog.ID, at));
        }

        assertThat(f.events)
                .filteredOn(LifecycleEvent.OccurrenceOverdue.class::isInstance)
                .map(e -> ((LifecycleEvent.OccurrenceOverdue) e).occurrence().toInstant())
                .containsExactly(JAN_18);
    }
}
