package dev.punctual.time;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Everything that takes occurrences out of one job's schedule (decision 0034): its calendar rule, its own
 * blackouts, its lock group's and the catalog's. The job's occurrences are its schedule's minus these,
 * in every path that asks ({@link OccurrenceCalculator#of(Schedule, Exclusions)}): the live path, catch-up,
 * replay, the watchdog, {@code plan} and {@code status}.
 */
public record Exclusions(List<Exclusion> items) {

    public static final Exclusions NONE = new Exclusions(List.of());

    public Exclusions {
        items = List.copyOf(items);
    }

    public boolean isEmpty() {
        return items.isEmpty();
    }

    /** These and more. */
    public Exclusions plus(List<? extends Exclusion> more) {
        return more.isEmpty()
                ? this
                : new Exclusions(Stream.concat(items.stream(), more.stream()).toList());
    }

    /** The first excluded span containing the instant, in declaration order (a calendar before a blackout). */
    public Optional<ExcludedSpan> covering(Instant instant) {
        for (Exclusion exclusion : items) {
            Optional<ExcludedSpan> span = exclusion.covering(instant);
            if (span.isPresent()) {
                return span;
            }
        }
        return Optional.empty();
    }

    /**
     * The union of all spans overlapping [from, to), merged so none overlaps another, oldest first: what
     * counting the excluded occurrences of a range subtracts once each.
     */
    public List<ExcludedSpan> merged(Instant from, Instant to) {
        List<ExcludedSpan> all = new ArrayList<>();
        for (Exclusion exclusion : items) {
            all.addAll(exclusion.overlapping(from, to));
        }
        all.sort(Comparator.comparing(ExcludedSpan::from));
        List<ExcludedSpan> merged = new ArrayList<>();
        for (ExcludedSpan span : all) {
            ExcludedSpan last = merged.isEmpty() ? null : merged.getLast();
            if (last != null && !span.from().isAfter(last.until())) {
                if (span.until().isAfter(last.until())) {
                    merged.set(merged.size() - 1, new ExcludedSpan(last.from(), span.until(), last.kind(), last.why()));
                }
            } else {
                merged.add(span);
            }
        }
        return merged;
    }

    /**
     * A calendar that does not speak for the occurrence's date: the occurrence is refused
     * (CALENDAR_ENDED) and counted as missed rather than run on a date nobody checked.
     */
    public Optional<String> calendarBeyondRange(Instant occurrence) {
        for (Exclusion exclusion : items) {
            if (exclusion instanceof CalendarRule rule) {
                Optional<String> beyond = rule.beyondRange(occurrence);
                if (beyond.isPresent()) {
                    return beyond;
                }
            }
        }
        return Optional.empty();
    }

    /** One line per control, for {@code jobs} and {@code plan}. */
    public List<String> describe() {
        return items.stream().map(Exclusion::describe).toList();
    }
}
