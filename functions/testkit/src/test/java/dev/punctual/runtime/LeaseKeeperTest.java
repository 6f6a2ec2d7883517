package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.testkit.MutableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The runtime's own heartbeat when the store does not answer (the contract suites cover the rest). */
class LeaseKeeperTest {

    private static final Instant AT = Instant.parse("2026-11-30T10:00:00Z");

    private final MutableClock clock = new MutableClock(AT);
    private final RunLedger ledger = RuntimeFixture.inMemory(clock);
    private final AtomicInteger failuresLeft = new AtomicInteger(1);

    /** The ledger, whose next {@code failuresLeft} extensions find the store unavailable. */
    private final RunLedger flaky = (RunLedger) Proxy.newProxyInstance(
            RunLedger.class.getClassLoader(), new Class<?>[] {RunLedger.class}, (proxy, method, args) -> {
                if (method.getName().equals("extend") && failuresLeft.getAndDecrement() > 0) {
                    throw new PunctualException("extend lease: not applied after 3 sends; the ledger is unavailable");
                }
                try {
                    return method.invoke(ledger, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            });

    @Test
    void renewalTheStoreDoesNotAnswer_keepsTheKnownLeaseAndItsDeadline_andTheNextPollRenews() {
        Deadline invocation = Deadline.fromRemaining(AT, Duration.ofMinutes(5)).withLeaseTerm(Duration.ofMinutes(1));
        Lease lease = claim(invocation.leaseFor(AT));
        LeaseKeeper keeper = new LeaseKeeper(flaky, clock, invocation, lease);
        assertThat(keeper.deadline()).isEqualTo(Instant.parse("2026-11-30T10:00:56Z"));

        clock.advance(Duration.ofSeconds(40)); // 20 s of the one-minute term left: a renewal is due
        Instant whileUnavailable = keeper.deadline();

        assertThat(whileUnavailable).isEqualTo(Instant.parse("2026-11-30T10:00:56Z"));
        assertThat(keeper.lost()).isFalse();

        clock.advance(Duration.ofSeconds(4));
        assertThat(keeper.deadline()).isEqualTo(Instant.parse("2026-11-30T10:01:40Z"));
        assertThat(keeper.lost()).isFalse();
    }

    @Test
    void shortTermNextToTheLargestTolerance_aJobPollingEverySecond_isRenewedBeforeItsDeadline() {
        // The CLI's term for a one-minute pool under a 60 s tolerance: 2 minutes, of which the job
        // may work 58 s before it must stop (a tolerance and the completion's safety before the end).
        Deadline invocation = Deadline.fromRemaining(AT, Duration.ofMinutes(15), Duration.ofSeconds(60))
                .withLeaseTerm(Duration.ofMinutes(2));
        LeaseKeeper keeper = new LeaseKeeper(ledger, clock, invocation, claim(invocation.leaseFor(AT)));
        Instant firstDeadline = keeper.deadline();
        assertThat(firstDeadline).isEqualTo(Instant.parse("2026-11-30T10:00:58Z"));

        while (clock.instant().isBefore(firstDeadline)) {
            clock.advance(Duration.ofSeconds(1));
            keeper.deadline();
        }

        assertThat(keeper.lost()).isFalse();
        assertThat(keeper.deadline()).as("renewed while the job still had time").isAfter(clock.instant());
    }

    @Test
    void leaseTermNoLongerThanTheToleranceAndTheSafety_isRefused_leavingNoTimeToWork() {
        Deadline invocation = Deadline.fromRemaining(AT, Duration.ofMinutes(15), Duration.ofSeconds(60));

        assertThatThrownBy(() -> invocation.withLeaseTerm(Duration.ofSeconds(62)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("plus the completion's PT2S");
    }

    private Lease claim(Instant until) {
        ClaimResult result = ledger.claim(ClaimRequest.scheduled(new RunKey("stepper", AT), 1, 3, until));
        assertThat(result).isInstanceOf(ClaimResult.Claimed.class);
        return ((ClaimResult.Claimed) result).claim().lease();
    }
}
