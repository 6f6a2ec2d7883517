package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.RunKey;
import dev.punctual.outcome.Reason;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A replay over a long range already run reads a bounded number of done occurrences and leaves the rest
 * counted for the next replay. On the in-memory ledger only: the point is the count of reads, and 1,050
 * run items are seconds here but minutes on the emulator, which the contract suites already cover for the
 * replay's other rules.
 */
class ReplayReadBoundTest {

    private static final Instant FROM = Instant.parse("2026-11-01T00:00:00Z");
    private static final int DAYS = 12;
    private static final int DONE = Dispatcher.DONE_READ_LIMIT + 50;

    @Test
    void replay_overMoreDoneOccurrencesThanTheReadLimit_stopsAtTheLimit_andCountsTheRestAsNotRun() {
        RuntimeFixture f = RuntimeFixture.dev(FROM.plus(Duration.ofDays(DAYS)));
        for (int i = 0; i < DONE; i++) {
            markDone(f, FROM.plus(Duration.ofMinutes(15L * i)));
        }
        long inRange = Duration.ofDays(DAYS).toMinutes() / 15;

        InvocationResult result = f.invoke("{\"kind\":\"replay\",\"job\":\"report-free\",\"from\":\"" + FROM
                + "\",\"to\":\"" + FROM.plus(Duration.ofDays(DAYS)) + "\",\"max\":5}");

        assertThat(result.occurrences()).hasSize(Dispatcher.DONE_READ_LIMIT);
        assertThat(result.occurrences()).allSatisfy(o -> assertThat(o.reason()).isEqualTo(Reason.ALREADY_DONE));
        assertThat(result.notRun()).isEqualTo(inRange - Dispatcher.DONE_READ_LIMIT);
        assertThat(f.ran).isEmpty();
    }

    private static void markDone(RuntimeFixture f, Instant occurrence) {
        ClaimResult claimed = f.ledger.claim(ClaimRequest.scheduled(
                new RunKey("report-free", occurrence), 1, 3, f.clock.peek().plus(Duration.ofMinutes(5))));
        f.ledger.complete(((ClaimResult.Claimed) claimed).claim(), new Outcome.Succeeded(null));
    }
}
