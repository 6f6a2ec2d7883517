package dev.punctual.infra;

import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * How long a schedule (or the union of several, e.g. every job of one function pool) can stay silent:
 * the longest gap between consecutive occurrences over a horizon, computed with the same
 * {@link OccurrenceCalculator} that drives the runtime, so daylight saving (a 25-hour "day"), month
 * lengths and {@code L}/{@code #} rules are all counted as EventBridge will fire them.
 *
 * <p>Gaps shorter than {@link #RESOLUTION} are reported as {@link #RESOLUTION}: nothing here needs
 * finer grain (alarms and keep-warm work in hours and days), and it keeps the walk over a minutely
 * schedule to one step per hour instead of one per occurrence.
 *
 * @param longestGap the longest silence found, at least {@link #RESOLUTION}; empty when the
 *     schedules have no two occurrences to measure between (a one-time {@code at()} or a schedule
 *     whose occurrences end)
 * @param nextOccurrence the first occurrence after the reference instant, if any
 */
public record Cadence(Optional<Duration> longestGap, Optional<Instant> nextOccurrence) {

    /**
     * Where synth measures cadences from. A fixed instant rather than today, so that two synths of one
     * commit give byte-identical templates and {@code cdk diff} after a no-op change is empty; the
     * window it opens (over a year) holds every yearly rule and both DST transitions of every zone.
     * Moving it is a deliberate change, reviewed like any other template change.
     */
    public static final Instant REFERENCE = Instant.parse("2027-01-01T00:00:00Z");

    /** The look-ahead: more than a year, so yearly rules and both DST transitions are inside it. */
    public static final Duration HORIZON = Duration.ofDays(400);

    public static final Duration RESOLUTION = Duration.ofHours(1);

    /** The cadence of one schedule from {@code from} over {@link #HORIZON}. */
    public static Cadence of(Schedule schedule, Instant from) {
        return of(List.of(schedule), from);
    }

    /**
     * The cadence of the union of the schedules: a gap ends when any of them fires.
     *
     * <p>The walk starts at the last occurrence before {@code from} (so the gap that is running at
     * {@code from} counts) and jumps: from an occurrence {@code t} it asks for the last occurrence at
     * or before {@code t + best}; every gap between {@code t} and that occurrence is at most
     * {@code best}, so only the gap after it needs measuring. Each step advances by at least
     * {@code best} or finds a longer gap.
     */
    public static Cadence of(List<Schedule> schedules, Instant from) {
        List<OccurrenceCalculator> calculators =
                schedules.stream().map(OccurrenceCalculator::of).toList();
        Instant to = from.plus(HORIZON);
        Optional<Instant> next = next(calculators, from);
        Optional<Instant> start = previous(calculators, from.plusSeconds(1)).or(() -> next);
        if (start.isEmpty()) {
            return new Cadence(Optional.empty(), next);
        }
        Instant cursor = start.get();
        Duration best = RESOLUTION;
        boolean measured = false;
        while (cursor.isBefore(to)) {
            Instant reach = previous(calculators, cursor.plus(best).plusSeconds(1))
                    .filter(cursor::isBefore)
                    .orElse(cursor);
            if (reach.isAfter(cursor)) {
                measured = true;
                cursor = reach;
                continue;
            }
            Optional<Instant> following = next(calculators, cursor);
            if (following.isEmpty()) {
                break;
            }
            measured = true;
            best = max(best, Duration.between(cursor, following.get()));
            cursor = following.get();
        }
        return new Cadence(measured ? Optional.of(best) : Optional.empty(), next);
    }

    /** Whether a function hosting these schedules could sit idle for longer than {@code limit}. */
    public boolean mayIdleLongerThan(Duration limit) {
        return longestGap.map(gap -> gap.compareTo(limit) > 0).orElse(true);
    }

    private static Optional<Instant> next(List<OccurrenceCalculator> calculators, Instant after) {
        return calculators.stream()
                .map(c -> c.next(after))
                .flatMap(Optional::stream)
                .min(Instant::compareTo);
    }

    private static Optional<Instant> previous(List<OccurrenceCalculator> calculators, Instant before) {
        return calculators.stream()
                .map(c -> c.previous(before))
                .flatMap(Optional::stream)
                .max(Instant::compareTo);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
