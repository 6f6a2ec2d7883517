package dev.punctual.time;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * Turns local times into instants with EventBridge Scheduler's rules: a local time in a
 * spring-forward gap does not exist and yields {@link #GAP}; a local time in a fall-back overlap
 * exists twice and yields the earlier instant, once.
 *
 * <p>Remembers the stretch of local time around the last answer in which the zone has one fixed
 * offset, so a walk through consecutive occurrences asks the zone rules only near transitions.
 * Mutable: one per search.
 */
final class ZoneResolver {
    static final long GAP = Long.MIN_VALUE;

    private final ZoneRules rules;
    private long fixedFrom;
    private long fixedUntil;
    private long offset;
    private ZoneOffsetTransition transition;

    ZoneResolver(ZoneRules rules) {
        this.rules = rules;
        if (rules.isFixedOffset()) {
            fixedFrom = Long.MIN_VALUE;
            fixedUntil = Long.MAX_VALUE;
            offset = rules.getOffset(Instant.EPOCH).getTotalSeconds();
        }
    }

    /** The instant of a local time (local epoch seconds), or {@link #GAP}. */
    long toInstant(long localSeconds) {
        if (localSeconds >= fixedFrom && localSeconds < fixedUntil) {
            transition = null;
            return localSeconds - offset;
        }
        LocalDateTime local = LocalCalendar.localDateTime(localSeconds);
        transition = rules.getTransition(local);
        if (transition != null) {
            return transition.isGap()
                    ? GAP
                    : localSeconds - transition.getOffsetBefore().getTotalSeconds();
        }
        ZoneOffset zoneOffset = rules.getOffset(local);
        offset = zoneOffset.getTotalSeconds();
        long instant = localSeconds - offset;
        rememberFixedStretch(instant);
        return instant;
    }

    /** The gap or overlap the last local time fell into, or null. */
    ZoneOffsetTransition transition() {
        return transition;
    }

    private void rememberFixedStretch(long instant) {
        ZoneOffsetTransition previous = rules.previousTransition(Instant.ofEpochSecond(instant + 1));
        ZoneOffsetTransition next = rules.nextTransition(Instant.ofEpochSecond(instant));
        fixedFrom = previous == null ? Long.MIN_VALUE : localSecondsAfter(previous);
        fixedUntil = next == null ? Long.MAX_VALUE : localSecondsBefore(next);
    }

    /** Where unambiguous local time resumes after a transition (end of the gap or of the overlap). */
    private static long localSecondsAfter(ZoneOffsetTransition transition) {
        return Math.max(
                LocalCalendar.localSeconds(transition.getDateTimeBefore()),
                LocalCalendar.localSeconds(transition.getDateTimeAfter()));
    }

    /** Where unambiguous local time stops before a transition (start of the gap or of the overlap). */
    private static long localSecondsBefore(ZoneOffsetTransition transition) {
        return Math.min(
                LocalCalendar.localSeconds(transition.getDateTimeBefore()),
                LocalCalendar.localSeconds(transition.getDateTimeAfter()));
    }

    /**
     * The first local minute whose occurrence would come strictly after {@code instant}. In the later
     * half of an overlap the local clock has gone back, but every local time of the overlap already ran
     * at its earlier instant, so the search resumes where the overlap ends.
     */
    long firstLocalAfter(long instant) {
        ZoneOffset at = rules.getOffset(Instant.ofEpochSecond(instant));
        long local = instant + at.getTotalSeconds();
        ZoneOffsetTransition overlap = rules.getTransition(LocalCalendar.localDateTime(local));
        if (overlap != null && overlap.isOverlap() && at.equals(overlap.getOffsetAfter())) {
            return LocalCalendar.localSeconds(overlap.getDateTimeBefore());
        }
        return Math.floorDiv(local, 60) * 60 + 60;
    }

    /** The last local minute whose occurrence would come strictly before {@code instant}. */
    long lastLocalBefore(long instant) {
        ZoneOffset at = rules.getOffset(Instant.ofEpochSecond(instant));
        long local = instant + at.getTotalSeconds();
        ZoneOffsetTransition overlap = rules.getTransition(LocalCalendar.localDateTime(local));
        if (overlap != null && overlap.isOverlap() && at.equals(overlap.getOffsetAfter())) {
            return LocalCalendar.localSeconds(overlap.getDateTimeBefore()) - 60;
        }
        return Math.floorDiv(local - 1, 60) * 60;
    }
}
