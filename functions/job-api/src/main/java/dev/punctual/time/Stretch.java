package dev.punctual.time;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;

/**
 * A span of time between two transitions of a zone, where every local time exists exactly once and
 * maps to an instant by one offset. Bounds in local epoch seconds, [localFrom, localUntil).
 */
record Stretch(long localFrom, long localUntil, int offset) {

    static Stretch always(ZoneOffset offset) {
        return new Stretch(Long.MIN_VALUE, Long.MAX_VALUE, offset.getTotalSeconds());
    }

    /** The stretch containing {@code instant}, which must not lie in an overlap. */
    static Stretch around(ZoneRules rules, long instant) {
        ZoneOffsetTransition previous = rules.previousTransition(Instant.ofEpochSecond(instant + 1));
        ZoneOffsetTransition next = rules.nextTransition(Instant.ofEpochSecond(instant));
        int offset = rules.getOffset(Instant.ofEpochSecond(instant)).getTotalSeconds();
        return new Stretch(
                previous == null ? Long.MIN_VALUE : unambiguousAfter(previous),
                next == null ? Long.MAX_VALUE : unambiguousUntil(next),
                offset);
    }

    /** Where unambiguous local time resumes after a transition (end of the gap or of the overlap). */
    private static long unambiguousAfter(ZoneOffsetTransition transition) {
        return Math.max(
                LocalCalendar.localSeconds(transition.getDateTimeBefore()),
                LocalCalendar.localSeconds(transition.getDateTimeAfter()));
    }

    /** Where unambiguous local time stops before a transition (start of the gap or of the overlap). */
    private static long unambiguousUntil(ZoneOffsetTransition transition) {
        return Math.min(
                LocalCalendar.localSeconds(transition.getDateTimeBefore()),
                LocalCalendar.localSeconds(transition.getDateTimeAfter()));
    }

    boolean containsLocal(long localSeconds) {
        return localSeconds >= localFrom && localSeconds < localUntil;
    }

    /**
     * Whether the instant lies in the stretch. The instants of a stretch are exactly those whose local
     * time by this offset falls in its local bounds: an overlap's instants are excluded on both sides.
     */
    boolean containsInstant(long instant) {
        return containsLocal(instant + offset);
    }
}
