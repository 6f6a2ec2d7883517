package dev.punctual.time;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;

/** The one occurrence of {@code at(...)}: in a repeated hour, the earlier instant, like cron. */
record AtOccurrences(Occurrence occurrence) implements OccurrenceSource {

    AtOccurrences(AtExpression at, ZoneRules rules) {
        this(occurrence(at.localTime(), rules));
    }

    private static Occurrence occurrence(LocalDateTime local, ZoneRules rules) {
        ZoneOffsetTransition overlap = rules.getTransition(local);
        ZoneOffset offset = overlap != null ? overlap.getOffsetBefore() : rules.getOffset(local);
        return new Occurrence(local.toInstant(offset), local, offset, overlap);
    }

    private long at() {
        return occurrence.instant().getEpochSecond();
    }

    @Override
    public long nextAfter(long epochSecond) {
        return at() > epochSecond ? at() : NONE;
    }

    @Override
    public long previousBefore(long epochSecond) {
        return at() < epochSecond ? at() : NONE;
    }

    @Override
    public long countBetween(long afterExclusive, long beforeExclusive) {
        return at() > afterExclusive && at() < beforeExclusive ? 1 : 0;
    }

    @Override
    public List<TimelineEntry> timeline(long fromInclusive, long toExclusive, int limit) {
        boolean inside = at() >= fromInclusive && at() < toExclusive && limit > 0;
        return inside ? List.of(occurrence) : List.of();
    }
}
