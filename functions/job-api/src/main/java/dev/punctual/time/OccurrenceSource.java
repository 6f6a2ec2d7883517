package dev.punctual.time;

import java.util.List;

/** How one kind of expression produces occurrences, on epoch seconds. */
sealed interface OccurrenceSource
        permits CronOccurrences, RateOccurrences, AtOccurrences, RecurrenceOccurrences, ExcludingOccurrences {
    long NONE = LocalCalendar.NONE;

    /** The first occurrence strictly after, or {@link #NONE}. */
    long nextAfter(long epochSecond);

    /** The last occurrence strictly before, or {@link #NONE}. */
    long previousBefore(long epochSecond);

    /** How many occurrences lie strictly between the two. */
    long countBetween(long afterExclusive, long beforeExclusive);

    /** Occurrences and skipped local times in [from, to), at most {@code limit} occurrences. */
    List<TimelineEntry> timeline(long fromInclusive, long toExclusive, int limit);
}
