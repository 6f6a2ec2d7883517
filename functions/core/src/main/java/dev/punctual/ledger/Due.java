package dev.punctual.ledger;

import dev.punctual.PunctualException;
import java.time.Duration;
import java.time.Instant;

/**
 * The rule for a time that comes from outside (a payload, the CLI): it must have come. The scheduler
 * delivers an occurrence at or after its nominal time, so a later one is a typo, a hand-made payload
 * or an attack, and running it would take effect early; a scheduler's time may be up to
 * {@link #TOLERANCE} ahead of this clock (skew), an operator's none. The ledger refuses to claim a
 * scheduled occurrence beyond the tolerance, before any job runs, so no path moves a cursor into the
 * future.
 */
public final class Due {

    /**
     * How far ahead of this clock a time may be and still count as due: Lambda's and the scheduler's
     * clocks are NTP-synchronised to well under a second, so 5 s absorbs their skew and nothing else.
     */
    public static final Duration TOLERANCE = Duration.ofSeconds(5);

    private Due() {}

    /** For a scheduler's delivery: another clock named the time, so allow for the two clocks' skew. */
    public static boolean isDue(Instant time, Instant now) {
        return !time.isAfter(now.plus(TOLERANCE));
    }

    /**
     * For an operator's time ({@code run --at}, a replay's end): the same clock that runs it judges
     * it, so there is no skew to allow for, and no run may take effect even a second early.
     */
    public static boolean hasCome(Instant time, Instant now) {
        return !time.isAfter(now);
    }

    /** A fault: the runtime checks every outside time first, so reaching this is a bug, not input. */
    public static void require(Instant time, Instant now, String what) {
        if (!isDue(time, now)) {
            throw new PunctualException(what + " " + time + " is after now (" + now + ") plus " + TOLERANCE
                    + "; the ledger never moves a cursor into the future");
        }
    }
}
