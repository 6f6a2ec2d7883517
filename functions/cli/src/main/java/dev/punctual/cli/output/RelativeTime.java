package dev.punctual.cli.output;

import java.time.Duration;
import java.time.Instant;

/** Times for people: {@code in 2h 10m}, {@code 3d 4h ago}, {@code now}. */
public final class RelativeTime {

    private RelativeTime() {}

    /** How far {@code then} is from {@code now}, in the two largest units. */
    public static String from(Instant now, Instant then) {
        Duration d = Duration.between(now, then);
        if (d.abs().toSeconds() == 0) {
            return "now";
        }
        return d.isNegative() ? readable(d.negated()) + " ago" : "in " + readable(d);
    }

    /** {@code 2d 3h}, {@code 2h 46m}, {@code 5m 12s}, {@code 0s}: the two largest units, for people. */
    public static String readable(Duration d) {
        long s = d.toSeconds();
        long days = s / 86_400;
        long hours = s % 86_400 / 3_600;
        long minutes = s % 3_600 / 60;
        long seconds = s % 60;
        if (days > 0) {
            return days + "d " + hours + "h";
        }
        if (hours > 0) {
            return hours + "h " + minutes + "m";
        }
        return minutes > 0 ? minutes + "m " + seconds + "s" : seconds + "s";
    }
}
