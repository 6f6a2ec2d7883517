package dev.punctual.cli;

import java.time.Duration;
import java.time.Instant;

/** Times for people: {@code in 2h 10m}, {@code 3d 4h ago}, {@code now}. */
final class RelativeTime {

    private RelativeTime() {}

    /** How far {@code then} is from {@code now}, in the two largest units. */
    static String from(Instant now, Instant then) {
        Duration d = Duration.between(now, then);
        if (d.abs().toSeconds() == 0) {
            return "now";
        }
        return d.isNegative() ? StatusCommand.readable(d.negated()) + " ago" : "in " + StatusCommand.readable(d);
    }
}
