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
 * <p>Works from a {@link Stretch}, a span between two transitions where the zone has one offset, so a
 * walk through consecutive occurrences asks the zone rules only near transitions. The last stretch
 * is shared through a {@link StretchCache}, so consecutive searches of one calculator start warm.
 * Mutable: one per search.
 */
final class ZoneResolver {
    static final long GAP = Long.MIN_VALUE;

    private final ZoneRules rules;
    private final StretchCache cache;
    private Stretch stretch;
    private ZoneOffsetTransition transition;

    ZoneResolver(ZoneRules rules, StretchCache cache) {
        this.rules = rules;
        this.cache = cache;
        this.stretch = rules.isFixedOffset() ? Stretch.always(rules.getOffset(Instant.EPOCH)) : cache.get();
    }

    /** The instant of a local time (local epoch seconds), or {@link #GAP}. */
    long toInstant(long localSeconds) {
        if (stretch != null && stretch.containsLocal(localSeconds)) {
            transition = null;
            return localSeconds - stretch.offset();
        }
        LocalDateTime local = LocalCalendar.localDateTime(localSeconds);
        transition = rules.getTransition(local);
        if (transition != null) {
            return transition.isGap()
                    ? GAP
                    : localSeconds - transition.getOffsetBefore().getTotalSeconds();
        }
        long instant = localSeconds - rules.getOffset(local).getTotalSeconds();
        remember(instant);
        return instant;
    }

    /** The gap or overlap the last local time fell into, or null. */
    ZoneOffsetTransition transition() {
        return transition;
    }

    private Stretch remember(long instant) {
        stretch = Stretch.around(rules, instant);
        cache.set(stretch);
        return stretch;
    }

    /**
     * The first local minute whose occurrence would come strictly after {@code instant}. In the later
     * half of an overlap the local clock has gone back, but every local time of the overlap already ran
     * at its earlier instant, so the search resumes where the overlap ends.
     */
    long firstLocalAfter(long instant) {
        if (stretch != null && stretch.containsInstant(instant)) {
            return Math.floorDiv(instant + stretch.offset(), 60) * 60 + 60;
        }
        ZoneOffsetTransition overlap = laterHalfOfOverlap(instant);
        if (overlap != null) {
            return LocalCalendar.localSeconds(overlap.getDateTimeBefore());
        }
        return Math.floorDiv(
                                instant
                                        + rules.getOffset(Instant.ofEpochSecond(instant))
                                                .getTotalSeconds(),
                                60)
                        * 60
                + 60;
    }

    /** The last local minute whose occurrence would come strictly before {@code instant}. */
    long lastLocalBefore(long instant) {
        if (stretch != null && stretch.containsInstant(instant)) {
            return Math.floorDiv(instant + stretch.offset() - 1, 60) * 60;
        }
        ZoneOffsetTransition overlap = laterHalfOfOverlap(instant);
        if (overlap != null) {
            return LocalCalendar.localSeconds(overlap.getDateTimeBefore()) - 60;
        }
        return Math.floorDiv(
                        instant
                                + rules.getOffset(Instant.ofEpochSecond(instant))
                                        .getTotalSeconds()
                                - 1,
                        60)
                * 60;
    }

    /** The overlap whose second pass {@code instant} lies in, else null. */
    private ZoneOffsetTransition laterHalfOfOverlap(long instant) {
        ZoneOffset at = rules.getOffset(Instant.ofEpochSecond(instant));
        ZoneOffsetTransition overlap = rules.getTransition(LocalCalendar.localDateTime(instant + at.getTotalSeconds()));
        boolean later = overlap != null && overlap.isOverlap() && at.equals(overlap.getOffsetAfter());
        return later ? overlap : null;
    }
}
