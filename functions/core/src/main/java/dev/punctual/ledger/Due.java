package dev.punctual.ledger;

import dev.punctual.PunctualException;
import java.time.Duration;
import java.time.Instant;

/**
 * The one rule for a time that comes from outside (a payload, the CLI): it is due when it is not later
 * than now plus {@link #TOLERANCE}. The scheduler delivers an occurrence at or after its nominal time,
 * so a later one is a typo, a hand-made payload or an attack, and running it would take effect early.
 * The ledger applies the same rule to every write that could move a job's cursor, so no path can move
 * it into the future.
 */
public final class Due {

    /**
     * How far ahead of this clock a time may be and still count as due: Lambda's and the scheduler's
     * clocks are NTP-synchronised to well under a second, so 5 s absorbs their skew and nothing else.
     */
    public static final Duration TOLERANCE = Duration.ofSeconds(5);

    private Due() {}

    public static boolean isDue(Instant time, Instant now) {
        return !time.isAfter(now.plus(TOLERANCE));
    }

    /** A fault: the runtime checks every outside time first, so reaching this is a bug, not input. */
    static void require(Instant time, Instant now, String what) {
        if (!isDue(time, now)) {
            throw new PunctualException(what + " " + time + " is after now (" + now + ") plus " + TOLERANCE
                    + "; the ledger never moves a cursor into the future");
        }
    }
}
