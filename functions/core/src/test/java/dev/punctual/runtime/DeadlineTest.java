package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DeadlineTest {

    private static final Instant NOW = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void fromRemaining_defaultTolerance_leaseEndsTwoSecondsAfterTheInvocation_andCoversItWhole() {
        Deadline d = Deadline.fromRemaining(NOW, Duration.ofMinutes(5));

        assertThat(d.workUntil()).isEqualTo(NOW.plus(Duration.ofMinutes(5)).minus(Deadline.SAFETY));
        assertThat(d.leaseUntil()).isEqualTo(NOW.plus(Duration.ofMinutes(5)).plusSeconds(2));
        assertThat(d.leaseFor(NOW)).isEqualTo(d.leaseUntil());
        assertThat(d.leaseFor(NOW.plusSeconds(90))).isEqualTo(d.leaseUntil());
    }

    @Test
    void withLeaseTerm_claimsTakeLeasesOfTheTerm_neverPastTheInvocationsBound() {
        Deadline d = Deadline.fromRemaining(NOW, Duration.ofMinutes(5)).withLeaseTerm(Duration.ofMinutes(1));

        assertThat(d.leaseFor(NOW)).isEqualTo(NOW.plus(Duration.ofMinutes(1)));
        assertThat(d.leaseFor(NOW.plus(Duration.ofMinutes(4)).plusSeconds(30))).isEqualTo(d.leaseUntil());
    }

    @Test
    void skewTolerance_aChosenOne_movesTheLeaseEnd_andOneOutsideZeroToSixtySecondsIsRefusedNamingTheBounds() {
        Deadline d = Deadline.fromRemaining(NOW, Duration.ofMinutes(5), Duration.ofSeconds(30));

        assertThat(d.leaseUntil()).isEqualTo(NOW.plus(Duration.ofMinutes(5)).plusSeconds(30));
        assertThatThrownBy(() -> Deadline.fromRemaining(NOW, Duration.ofMinutes(5), Duration.ofSeconds(61)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("skewTolerance must be between PT0S and PT1M, was PT1M1S");
        assertThatThrownBy(() -> Deadline.fromRemaining(NOW, Duration.ofMinutes(5), Duration.ofSeconds(-1)))
                .hasMessageContaining("skewTolerance must be between PT0S and PT1M");
    }

    @Test
    void leaseTerm_notLongerThanTheTolerance_isRefused() {
        Deadline d = Deadline.fromRemaining(NOW, Duration.ofMinutes(5));

        assertThatThrownBy(() -> d.withLeaseTerm(Duration.ofSeconds(2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("leaseTerm must be longer than the skew tolerance PT2S");
    }
}
