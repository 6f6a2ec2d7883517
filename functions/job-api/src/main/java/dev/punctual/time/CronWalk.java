package dev.punctual.time;

import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * Walks the local matches of a cron expression forward from an instant and resolves each in the
 * zone: one object per walk, no allocation per step, so counting a year of minutes costs time but
 * no memory.
 */
final class CronWalk {
    private final CronMatcher matcher;
    private final ZoneResolver zone;
    private final long after;
    private long nextLocal;
    private long local;
    private long instant;

    /** Starts a walk over local matches whose occurrences come strictly after {@code after}. */
    CronWalk(CronMatcher matcher, ZoneRules rules, StretchCache cache, long after) {
        this.matcher = matcher;
        this.zone = new ZoneResolver(rules, cache);
        this.after = after;
        this.nextLocal = zone.firstLocalAfter(after);
    }

    /** Moves to the next local match; false when the calendar (year 2199) is exhausted. */
    boolean advance() {
        do {
            local = matcher.next(nextLocal);
            if (local == LocalCalendar.NONE) {
                return false;
            }
            nextLocal = local + 60;
            instant = zone.toInstant(local);
        } while (instant != ZoneResolver.GAP && instant <= after);
        return true;
    }

    /** Moves to the next match that really occurs (not skipped by a gap). */
    boolean advanceToOccurrence() {
        while (advance()) {
            if (!skipped()) {
                return true;
            }
        }
        return false;
    }

    long local() {
        return local;
    }

    long instant() {
        return instant;
    }

    boolean skipped() {
        return instant == ZoneResolver.GAP;
    }

    /** The gap (when skipped) or overlap (when the local time repeats) of the current match, or null. */
    ZoneOffsetTransition transition() {
        return zone.transition();
    }
}
