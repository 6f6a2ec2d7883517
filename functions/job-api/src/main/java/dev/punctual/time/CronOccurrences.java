package dev.punctual.time;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.List;

/** Occurrences of a cron expression in a zone, with EventBridge Scheduler's DST rules. Thread-safe. */
final class CronOccurrences implements OccurrenceSource {
    private final CronMatcher matcher;
    private final ZoneRules rules;
    private final StretchCache stretches = new StretchCache();

    CronOccurrences(CronExpression cron, ZoneRules rules) {
        this.matcher = new CronMatcher(cron);
        this.rules = rules;
    }

    @Override
    public long nextAfter(long epochSecond) {
        CronWalk walk = new CronWalk(matcher, rules, stretches, epochSecond);
        return walk.advanceToOccurrence() ? walk.instant() : NONE;
    }

    @Override
    public long previousBefore(long epochSecond) {
        ZoneResolver zone = new ZoneResolver(rules, stretches);
        long local = zone.lastLocalBefore(epochSecond);
        while ((local = matcher.previous(local)) != LocalCalendar.NONE) {
            long instant = zone.toInstant(local);
            if (instant != ZoneResolver.GAP && instant < epochSecond) {
                return instant;
            }
            local -= 60;
        }
        return NONE;
    }

    @Override
    public long countBetween(long afterExclusive, long beforeExclusive) {
        CronWalk walk = new CronWalk(matcher, rules, stretches, afterExclusive);
        long count = 0;
        while (walk.advanceToOccurrence() && walk.instant() < beforeExclusive) {
            count++;
        }
        return count;
    }

    @Override
    public List<TimelineEntry> timeline(long fromInclusive, long toExclusive, int limit) {
        List<TimelineEntry> entries = new ArrayList<>();
        CronWalk walk = new CronWalk(matcher, rules, stretches, fromInclusive - 1);
        int occurrences = 0;
        while (occurrences < limit && walk.advance()) {
            TimelineEntry entry = entry(walk);
            if (entry.position().getEpochSecond() >= toExclusive) {
                break;
            }
            if (entry.position().getEpochSecond() >= fromInclusive) {
                entries.add(entry);
                occurrences += entry instanceof Occurrence ? 1 : 0;
            }
        }
        return entries;
    }

    private TimelineEntry entry(CronWalk walk) {
        if (walk.skipped()) {
            return new SkippedLocalTime(LocalCalendar.localDateTime(walk.local()), walk.transition());
        }
        int offset = (int) (walk.local() - walk.instant());
        return new Occurrence(
                Instant.ofEpochSecond(walk.instant()),
                LocalCalendar.localDateTime(walk.local()),
                ZoneOffset.ofTotalSeconds(offset),
                walk.transition());
    }
}
