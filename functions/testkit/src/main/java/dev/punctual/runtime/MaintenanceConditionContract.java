package dev.punctual.runtime;

import static dev.punctual.runtime.RuntimeFixture.scheduled;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobTable;
import dev.punctual.job.MaintenanceCondition;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.testkit.MutableClock;
import dev.punctual.outcome.Reason;
import dev.punctual.stage.StageFlags;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Maintenance driven by the data (issue 23, decision 0036, 5), on every ledger: while a condition of the
 * catalog finds data, every occurrence records {@code SKIP MAINTENANCE} with its reason before any work;
 * once it finds none, the next delivery runs and catches up; one that cannot be evaluated skips as
 * {@code MAINTENANCE_UNKNOWN}. "report-free" runs every 15 minutes and catches up 3 within 6 hours.
 */
public abstract class MaintenanceConditionContract {

    protected abstract RunLedger ledger(MutableClock clock);

    static final JobTable MEMBERS = JobTable.builder("Members")
            .environmentVariable("MEMBERS_TABLE")
            .partitionKey("pk", JobTable.AttributeType.STRING)
            .sortKey("sk", JobTable.AttributeType.STRING)
            .actions("dynamodb:Query")
            .build();

    static final MaintenanceCondition SYNTHETIC = MaintenanceCondition.whileItemsExist(
                    "synthetic-members", MEMBERS, "SYNTHETIC", "synthetic member data is loaded")
            .withSortKeyPrefix("member#");

    private static final Instant T0 = Instant.parse("2026-11-30T14:00:00Z");
    private static final Duration QUARTER = Duration.ofMinutes(15);

    private RuntimeFixture held() {
        return new RuntimeFixture(
                T0.plusSeconds(2), StageFlags.defaultsFor("dev"), this::ledger, f -> withCondition(f.catalog()));
    }

    private static JobCatalog withCondition(JobCatalog catalog) {
        return catalog.withMaintenanceCondition(SYNTHETIC);
    }

    private static void deliverAt(RuntimeFixture f, Instant occurrence) {
        f.clock.advance(Duration.between(f.clock.peek(), occurrence.plusSeconds(2)));
    }

    @Test
    void whileTheConditionFindsData_anOccurrenceIsSkippedAsMaintenance_withItsReason_andNothingRuns() {
        RuntimeFixture f = held();
        f.conditions.findsData(SYNTHETIC.name());

        InvocationResult result = f.invoke(scheduled("report-free", T0));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.MAINTENANCE);
            assertThat(o.detail()).isEqualTo("condition synthetic-members: synthetic member data is loaded");
        });
        assertThat(f.ran).isEmpty();
        assertThat(f.ledger.run(new RunKey("report-free", T0)).orElseThrow().reason())
                .isEqualTo("MAINTENANCE: condition synthetic-members: synthetic member data is loaded");
        assertThat(f.ledger.cursor("report-free")).isEmpty();
    }

    @Test
    void aConditionFlippingBetweenDeliveries_skipsWhileItHolds_andTheFirstDeliveryAfterItCatchesUp() {
        RuntimeFixture f = held();
        f.invoke(scheduled("report-free", T0));
        f.conditions.findsData(SYNTHETIC.name());
        deliverAt(f, T0.plus(QUARTER));
        InvocationResult during = f.invoke(scheduled("report-free", T0.plus(QUARTER)));
        f.conditions.findsNothing(SYNTHETIC.name());
        deliverAt(f, T0.plus(QUARTER.multipliedBy(2)));

        InvocationResult after = f.invoke(scheduled("report-free", T0.plus(QUARTER.multipliedBy(2))));

        assertThat(during.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.MAINTENANCE));
        assertThat(after.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.OK, Reason.OK);
        assertThat(f.ran)
                .containsExactly(
                        "report-free@" + T0,
                        "report-free@" + T0.plus(QUARTER),
                        "report-free@" + T0.plus(QUARTER.multipliedBy(2)));
        assertThat(f.ledger
                        .run(new RunKey("report-free", T0.plus(QUARTER)))
                        .orElseThrow()
                        .status())
                .as("the skipped occurrence, caught up")
                .isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void aConditionThatCannotBeEvaluated_skipsAsMaintenanceUnknown_namingWhy_andNeverRunsBlind() {
        RuntimeFixture f = held();
        f.invoke(scheduled("report-free", T0));
        f.conditions.fails(SYNTHETIC.name(), "AccessDeniedException: not authorized to perform dynamodb:Query");
        deliverAt(f, T0.plus(QUARTER));

        InvocationResult result = f.invoke(scheduled("report-free", T0.plus(QUARTER)));
        f.conditions.findsNothing(SYNTHETIC.name());
        deliverAt(f, T0.plus(QUARTER.multipliedBy(2)));
        InvocationResult recovered = f.invoke(scheduled("report-free", T0.plus(QUARTER.multipliedBy(2))));

        assertThat(result.occurrences()).singleElement().satisfies(o -> {
            assertThat(o.reason()).isEqualTo(Reason.MAINTENANCE_UNKNOWN);
            assertThat(o.detail())
                    .isEqualTo("condition synthetic-members could not be evaluated: AccessDeniedException: not"
                            + " authorized to perform dynamodb:Query");
        });
        assertThat(f.outcomeLines().get(1).get("reason").asText()).isEqualTo("MAINTENANCE_UNKNOWN");
        assertThat(recovered.occurrences()).extracting(OccurrenceReport::reason).containsExactly(Reason.OK, Reason.OK);
        assertThat(f.ran)
                .containsExactly(
                        "report-free@" + T0,
                        "report-free@" + T0.plus(QUARTER),
                        "report-free@" + T0.plus(QUARTER.multipliedBy(2)));
    }

    @Test
    void theCondition_isAskedOncePerOccurrenceRun_andACatalogWithoutOneAsksNothing() {
        RuntimeFixture with = held();
        RuntimeFixture without = new RuntimeFixture(T0.plusSeconds(2), StageFlags.defaultsFor("dev"), this::ledger);

        with.invoke(scheduled("report-free", T0));
        without.invoke(scheduled("report-free", T0));

        assertThat(with.conditions.asked()).isEqualTo(1);
        assertThat(without.conditions.asked()).isZero();
        assertThat(without.ran).containsExactly("report-free@" + T0);
    }

    @Test
    void aDeliveryTheStageRefusesAnyway_neverAsksTheCondition() {
        RuntimeFixture f = new RuntimeFixture(
                T0.plusSeconds(2),
                new StageFlags("dev", false, false, false, Duration.ofSeconds(5)),
                this::ledger,
                fixture -> withCondition(fixture.catalog()));
        f.conditions.findsData(SYNTHETIC.name());

        InvocationResult result = f.invoke(scheduled("report-free", T0));

        assertThat(result.occurrences())
                .singleElement()
                .satisfies(o -> assertThat(o.reason()).isEqualTo(Reason.SCHEDULES_DISABLED));
        assertThat(f.conditions.asked()).isZero();
    }

    @Test
    void aPing_evaluatesEveryCondition_withTheFunctionsOwnProbe_andReportsEachState() throws Exception {
        RuntimeFixture f = held();
        f.conditions.fails(SYNTHETIC.name(), "AccessDeniedException: not authorized to perform dynamodb:Query");

        InvocationResult ping = f.invoke("{\"kind\":\"ping\"}");

        assertThat(ping.conditions())
                .containsExactly(new ConditionState(
                        "synthetic-members",
                        ConditionState.State.UNKNOWN,
                        java.util.Optional.of("AccessDeniedException: not authorized to perform dynamodb:Query")));
        assertThat(RuntimeFixture.JSON
                        .readTree(ResultJson.render(ping))
                        .at("/conditions/0/state")
                        .asText())
                .isEqualTo("UNKNOWN");
        f.conditions.findsData(SYNTHETIC.name());
        assertThat(f.invoke("{\"kind\":\"ping\"}").conditions())
                .extracting(ConditionState::state)
                .containsExactly(ConditionState.State.HOLDS);
        assertThat(f.ran).isEmpty();
    }
}
