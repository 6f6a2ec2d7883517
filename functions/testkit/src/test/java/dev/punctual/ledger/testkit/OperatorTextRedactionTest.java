package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.OperatorSkip;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.SkipPlan;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Who set a hold or a skip is redacted as a hold's reason is (issue 40, item 5), in the ledger itself,
 * whoever calls it: a secret typed as the operator's name is never stored nor read back, and the operator
 * it names is still the one who may lift their own hold.
 */
class OperatorTextRedactionTest {

    private static final Instant START = Instant.parse("2026-11-30T14:00:00Z");
    private static final String SECRET_BY = "password=" + "hunter2-ops";

    private final MutableClock clock = new MutableClock(START);
    private final RunLedger ledger = InMemoryRunLedger.create(clock);

    @Test
    void aHoldsSetter_isStoredRedacted_andTheSameTypedNameStillLiftsIt() {
        ledger.maintenanceOn(new MaintenanceRequest(
                List.of("g"),
                new MaintenanceHold("load", SECRET_BY, START.plus(Duration.ofHours(1))),
                Duration.ZERO,
                Duration.ofMillis(100)));

        assertThat(ledger.maintenance("g").orElseThrow().setBy()).isEqualTo("password=[REDACTED]");
        assertThat(ledger.maintenanceOff(List.of("g"), Optional.of("bob"))).isEmpty();
        assertThat(ledger.maintenanceOff(List.of("g"), Optional.of(SECRET_BY))).containsExactly("g");
    }

    @Test
    void aSkipsSetter_isStoredRedacted() {
        SkipPlan plan = ledger.skip(new RunKey("daily", START.plus(Duration.ofDays(1))), SECRET_BY, "outage");

        OperatorSkip skip = ((SkipPlan.Planned) plan).record().skip().orElseThrow();
        assertThat(skip.by()).isEqualTo("password=[REDACTED]");
        assertThat(skip.describe()).doesNotContain("hunter2");
        // Read back (as a store decodes it), a stored name stays as it was stored.
        assertThat(new OperatorSkip(skip.by(), skip.why(), skip.setAt(), null)).isEqualTo(skip);
    }
}
