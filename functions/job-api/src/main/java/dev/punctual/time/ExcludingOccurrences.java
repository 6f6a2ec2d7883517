package dev.punctual.time;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A schedule's occurrences minus a job's exclusions (decision 0034). Each search jumps over a whole
 * excluded span at a time rather than stepping through the occurrences in it, so a minutely job across a
 * holiday costs one jump, not 1,440 steps.
 */
final class ExcludingOccurrences implements OccurrenceSource {
    private final OccurrenceSource schedule;
    private final Exclusions exclusions;

    ExcludingOccurrences(OccurrenceSource schedule, Exclusions exclusions) {
        this.schedule = schedule;
        this.exclusions = exclusions;
    }

    @Override
    public long nextAfter(long epochSecond) {
        long next = schedule.nextAfter(epochSecond);
        while (next != NONE) {
            Optional<ExcludedSpan> span = exclusions.covering(Instant.ofEpochSecond(next));
            if (span.isEmpty()) {
                return next;
            }
            // The first occurrence at or after the span's end: strictly after one second before it.
            next = schedule.nextAfter(ceil(span.get().until()) - 1);
        }
        return NONE;
    }

    @Override
    public long previousBefore(long epochSecond) {
        long previous = schedule.previousBefore(epochSecond);
        while (previous != NONE) {
            Optional<ExcludedSpan> span = exclusions.covering(Instant.ofEpochSecond(previous));
            if (span.isEmpty()) {
                return previous;
            }
            previous = schedule.previousBefore(ceil(span.get().from()));
        }
        return NONE;
    }

    @Override
    public long countBetween(long afterExclusive, long beforeExclusive) {
        long count = schedule.countBetween(afterExclusive, beforeExclusive);
        if (count == 0) {
            return 0;
        }
        for (ExcludedSpan span :
                exclusions.merged(Instant.ofEpochSecond(afterExclusive), Instant.ofEpochSecond(beforeExclusive))) {
            // Occurrences x with from <= x < until and after < x < before, on whole seconds.
            long lower = Math.max(afterExclusive, ceil(span.from()) - 1);
            long upper = Math.min(beforeExclusive, ceil(span.until()));
            if (upper - lower > 1) {
                count -= schedule.countBetween(lower, upper);
            }
        }
        return count;
    }

    @Override
    public List<TimelineEntry> timeline(long fromInclusive, long toExclusive, int limit) {
        List<TimelineEntry> kept = new ArrayList<>();
        long from = fromInclusive;
        int occurrences = 0;
        while (occurrences < limit && from < toExclusive) {
            int wanted = limit - occurrences;
            List<TimelineEntry> page = schedule.timeline(from, toExclusive, wanted);
            List<Occurrence> pageOccurrences = page.stream()
                    .filter(Occurrence.class::isInstance)
                    .map(Occurrence.class::cast)
                    .toList();
            boolean full = pageOccurrences.size() == wanted;
            long lastOccurrence = pageOccurrences.isEmpty()
                    ? Long.MAX_VALUE
                    : pageOccurrences.getLast().instant().getEpochSecond();
            for (TimelineEntry entry : page) {
                if (full && entry.position().getEpochSecond() > lastOccurrence) {
                    break; // the next page, starting after the last occurrence, lists it
                }
                if (entry instanceof Occurrence occurrence) {
                    if (exclusions.covering(occurrence.instant()).isPresent()) {
                        continue;
                    }
                    occurrences++;
                }
                kept.add(entry);
            }
            if (!full) {
                break;
            }
            from = lastOccurrence + 1;
        }
        return kept;
    }

    private static long ceil(Instant instant) {
        return instant.getNano() == 0 ? instant.getEpochSecond() : instant.getEpochSecond() + 1;
    }
}
