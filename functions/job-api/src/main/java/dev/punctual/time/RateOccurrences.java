package dev.punctual.time;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;

/**
 * Occurrences of a rate: every whole multiple of the period after {@link RateExpression#ANCHOR}, in
 * elapsed time. Daylight saving moves their local time and never skips or merges one.
 */
record RateOccurrences(long period, ZoneRules rules) implements OccurrenceSource {
    /** 2200-01-01T00:00:00Z: rates end with the calendar cron expressions can name. */
    static final long END = LocalCalendar.epochDay(LocalCalendar.LAST_YEAR + 1, 1, 1) * 86_400;

    RateOccurrences(RateExpression rate, ZoneRules rules) {
        this(rate.period().toSeconds(), rules);
    }

    @Override
    public long nextAfter(long epochSecond) {
        long next = Math.max(0, Math.floorDiv(epochSecond, period) + 1) * period;
        return next < END ? next : NONE;
    }

    @Override
    public long previousBefore(long epochSecond) {
        long previous = Math.floorDiv(Math.min(epochSecond, END) - 1, period) * period;
        return previous >= 0 ? previous : NONE;
    }

    @Override
    public long countBetween(long afterExclusive, long beforeExclusive) {
        long first = Math.max(0, Math.floorDiv(afterExclusive, period) + 1);
        long last = Math.floorDiv(Math.min(beforeExclusive, END) - 1, period);
        return Math.max(0, last - first + 1);
    }

    @Override
    public List<TimelineEntry> timeline(long fromInclusive, long toExclusive, int limit) {
        List<TimelineEntry> entries = new ArrayList<>();
        for (long at = nextAfter(fromInclusive - 1);
                at != NONE && at < toExclusive && entries.size() < limit;
                at = nextAfter(at)) {
            Instant instant = Instant.ofEpochSecond(at);
            ZoneOffset offset = rules.getOffset(instant);
            entries.add(new Occurrence(instant, LocalDateTime.ofInstant(instant, offset), offset, null));
        }
        return entries;
    }
}
