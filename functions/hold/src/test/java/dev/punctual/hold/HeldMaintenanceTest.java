package dev.punctual.hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.UnderMaintenance;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.testkit.InMemoryLedgerStore;
import dev.punctual.ledger.testkit.InMemoryRunLedger;
import dev.punctual.ledger.testkit.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HeldMaintenanceTest {

    private static final Instant START = Instant.parse("2026-12-04T02:00:00Z");
    private static final Duration LAPSE = Duration.ofMinutes(2);
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final MutableClock clock = new MutableClock(START);
    private final RunLedger ledger = InMemoryRunLedger.create(clock);
    private final List<String> lostGroups = new CopyOnWriteArrayList<>();
    private final HoldListener listener = (group, now) -> lostGroups.add(group + " to " + now.leaseHolder());

    private final HoldTerms terms = HoldTerms.of(List.of("billing", "reports"), "loading members", "loader")
            .forCommand("./load.sh --members")
            .lapsingAfter(LAPSE)
            .waitingAtMost(WAIT, Duration.ofSeconds(5));

    private ClaimResult claimNow(String job) {
        RunKey key = new RunKey(job, clock.instant().minus(Duration.ofMinutes(1)));
        return ledger.claim(ClaimRequest.scheduled(key, 1, 3, clock.instant().plus(Duration.ofMinutes(5))));
    }

    private HeldMaintenance taken() {
        return HeldMaintenance.takeWithoutRenewer(ledger, terms, clock, listener)
                .orThrow();
    }

    @Test
    void aHold_keepsEveryGroupsJobsOut_namesItsCommand_andItsCloseLetsThemIn() {
        try (HeldMaintenance held = taken()) {
            assertThat(held.heldUntil()).containsOnlyKeys("billing", "reports");
            assertThat(claimNow("billing")).isInstanceOf(UnderMaintenance.class);
            assertThat(claimNow("reports")).isInstanceOf(UnderMaintenance.class);
            assertThat(ledger.maintenance("billing"))
                    .hasValueSatisfying(h -> assertThat(h.command()).contains("./load.sh --members"));
        }

        assertThat(ledger.maintenance("billing")).isEmpty();
        assertThat(claimNow("billing")).isInstanceOf(ClaimResult.Claimed.class);
        assertThat(claimNow("reports")).isInstanceOf(ClaimResult.Claimed.class);
    }

    @Test
    void aHoldRenewedEachQuarterLapse_outlastsManyLapses() {
        try (HeldMaintenance held = taken()) {
            for (int i = 0; i < 20; i++) {
                clock.advance(terms.renewEvery());
                held.renewNow();
            }
            assertThat(Duration.between(START, clock.instant())).isGreaterThan(LAPSE.multipliedBy(2));
            assertThat(claimNow("billing")).isInstanceOf(UnderMaintenance.class);
            assertThat(held.heldUntil())
                    .containsEntry("billing", clock.instant().plus(LAPSE));
            assertThat(held.intact()).isTrue();
        }
    }

    @Test
    void aHolderThatStopsRenewingAfterItsTake_holdsTheStageNoLongerThanOneLapse_whateverItsWait() {
        HeldMaintenance abandoned = taken(); // never renewed again, never closed: a holder SIGKILLed

        clock.advance(LAPSE.minusSeconds(1));
        assertThat(claimNow("billing")).isInstanceOf(UnderMaintenance.class);
        clock.advance(Duration.ofSeconds(1));

        assertThat(claimNow("billing")).isInstanceOf(ClaimResult.Claimed.class);
        assertThat(abandoned.heldUntil().get("billing"))
                .as("the take lasted through its wait, and was brought back to one lapse as it ended")
                .isEqualTo(START.plus(LAPSE));
    }

    @Test
    void aHoldTheSameOperatorSetByHand_refusesTheirCommandHold_andKeepsItsEnd() {
        Instant twoDays = START.plus(Duration.ofDays(2));
        ledger.maintenanceOn(new MaintenanceRequest(
                List.of("reports"),
                new MaintenanceHold("migration", "loader", twoDays),
                Duration.ZERO,
                Duration.ofSeconds(1)));

        HoldOutcome outcome = HeldMaintenance.takeWithoutRenewer(ledger, terms, clock, listener);

        assertThat(outcome).isInstanceOf(HoldOutcome.Refused.class);
        assertThat(ledger.maintenance("reports")).hasValueSatisfying(h -> {
            assertThat(h.until()).isEqualTo(twoDays);
            assertThat(h.command()).isEmpty();
        });
        assertThat(ledger.maintenance("billing")).isEmpty();
    }

    @Test
    void aRenewalWithinTheSkewToleranceOfItsEnd_countsTheGroupAsLost() {
        HeldMaintenance late = taken();

        clock.advance(LAPSE.minusSeconds(1));
        late.renewNow();

        assertThat(late.intact()).isFalse();
        assertThat(late.lost()).containsExactly("billing", "reports");
    }

    @Test
    void aHoldForcedOverByAnOperator_isReportedLostAtItsNextRenewal_andItsCloseLeavesTheirs() {
        HeldMaintenance held = taken();
        ledger.maintenanceOn(new MaintenanceRequest(
                        List.of("reports"),
                        new MaintenanceHold("repair", "oncall", START.plus(Duration.ofHours(1))),
                        Duration.ZERO,
                        Duration.ofSeconds(1))
                .forced());

        clock.advance(WAIT.plus(terms.renewEvery()));
        held.renewNow();
        held.close();

        assertThat(held.lost()).containsExactly("reports");
        assertThat(held.intact()).isFalse();
        assertThat(lostGroups).containsExactly("reports to oncall");
        assertThat(ledger.maintenance("reports"))
                .hasValueSatisfying(h -> assertThat(h.setBy()).isEqualTo("oncall"));
        assertThat(ledger.maintenance("billing")).isEmpty();
    }

    @Test
    void aHoldMeetingAnotherOperatorsHold_isRefused_naming_whoHoldsIt_andHoldsNothing() {
        ledger.maintenanceOn(new MaintenanceRequest(
                List.of("reports"),
                new MaintenanceHold("repair", "oncall", START.plus(Duration.ofHours(1))),
                Duration.ZERO,
                Duration.ofSeconds(1)));

        HoldOutcome outcome = HeldMaintenance.takeWithoutRenewer(ledger, terms, clock, listener);

        assertThat(outcome).isInstanceOf(HoldOutcome.Refused.class);
        assertThatThrownBy(outcome::orThrow)
                .isInstanceOf(HoldNotTaken.class)
                .hasMessageContaining("reports")
                .hasMessageContaining("oncall");
        assertThat(ledger.maintenance("billing"))
                .as("the group taken first was given back")
                .isEmpty();
    }

    @Test
    void aHoldWhoseWaitEndsWithAJobStillRunning_givesBackWhatItTook() {
        Claim running = ((ClaimResult.Claimed) claimNow("reports")).claim();

        HoldOutcome outcome = HeldMaintenance.takeWithoutRenewer(ledger, terms, clock, listener);

        assertThat(outcome)
                .isInstanceOfSatisfying(
                        HoldOutcome.StillRunning.class,
                        still -> assertThat(still.runs())
                                .extracting(b -> b.group())
                                .containsExactly("reports"));
        assertThat(ledger.maintenance("billing")).isEmpty();
        ledger.complete(running, new Outcome.Succeeded(null));
        assertThat(claimNow("billing")).isInstanceOf(ClaimResult.Claimed.class);
    }

    @Test
    void aHoldMeetingARunningJob_waitsForItToFinish_thenHoldsItsGroupToo() {
        InMemoryLedgerStore store = new InMemoryLedgerStore();
        RunLedger jobs = InMemoryRunLedger.create(clock, store);
        RunKey key = new RunKey("reports", START.minus(Duration.ofMinutes(1)));
        Claim running = ((ClaimResult.Claimed)
                        jobs.claim(ClaimRequest.scheduled(key, 1, 3, START.plus(Duration.ofMinutes(5)))))
                .claim();
        // The hold's ledger sleeps on the clock; the job finishes during its first pause.
        RunLedger holding =
                new LedgerEngine(store, clock, () -> UUID.randomUUID().toString(), Retention.DEFAULT, d -> {
                    clock.advance(d);
                    jobs.complete(running, new Outcome.Succeeded(null));
                });

        try (HeldMaintenance held = HeldMaintenance.takeWithoutRenewer(holding, terms, clock, listener)
                .orThrow()) {
            assertThat(held.heldUntil()).containsOnlyKeys("billing", "reports");
            assertThat(jobs.claim(ClaimRequest.scheduled(
                            new RunKey("reports", START), 1, 3, clock.instant().plus(Duration.ofMinutes(5)))))
                    .isInstanceOf(UnderMaintenance.class);
        }
        assertThat(jobs.run(key).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void theRenewerThread_renewsWithoutBeingAsked() throws InterruptedException {
        HeldMaintenance held = HeldMaintenance.take(ledger, terms, clock, listener, Duration.ofMillis(10))
                .orThrow();
        try {
            clock.advance(LAPSE.dividedBy(2));
            Instant wanted = clock.instant().plus(LAPSE);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            // The renewer renews one group after the other: wait for the last, not the first.
            while (!(wanted.equals(held.heldUntil().get("billing"))
                            && wanted.equals(held.heldUntil().get("reports")))
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(held.heldUntil()).containsEntry("billing", wanted).containsEntry("reports", wanted);
        } finally {
            held.close();
        }
        LockState after = ledger.lock("billing");
        assertThat(after.leaseOwner()).as("closed: given back").isNull();
    }

    @Test
    void terms_refuseALapseOutsideItsBounds_namingWhatIsAccepted() {
        assertThatThrownBy(() -> terms.lapsingAfter(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lapse")
                .hasMessageContaining("PT30S to PT15M");
        assertThatThrownBy(() -> HoldTerms.of(List.of("billing"), " ", "loader"))
                .hasMessageContaining("reason");
        assertThat(terms.withEntityLeases(Map.of()).renewEvery()).isEqualTo(Duration.ofSeconds(30));
    }
}
