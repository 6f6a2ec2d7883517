package dev.punctual.time;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The occurrences of a schedule with EventBridge Scheduler's semantics: cron, at() and RRULE
 * recurrences (decision 0038) in the schedule's zone, a local time in a spring-forward gap skipped, a local time in a fall-back overlap
 * run once at its earlier instant; rate() in elapsed time from {@link RateExpression#ANCHOR}.
 *
 * <p>Immutable and thread-safe. It never reads a clock: every question names its instant. Searches
 * jump field by field and cover years 1970 to 2199, the range EventBridge's year field allows.
 */
public final class OccurrenceCalculator {
    private final Schedule schedule;
    private final OccurrenceSource source;
    private final Exclusions exclusions;

    private OccurrenceCalculator(Schedule schedule, OccurrenceSource source, Exclusions exclusions) {
        this.schedule = schedule;
        this.source = source;
        this.exclusions = exclusions;
    }

    /** How an outside time outside {@link #covers} is refused: the years, as people read them. */
    public static final String YEARS = LocalCalendar.FIRST_YEAR + " to " + LocalCalendar.LAST_YEAR;

    /**
     * Whether an instant lies in the years the calculator (and EventBridge's year field) covers, in
     * UTC: no schedule has an occurrence outside, so a time from outside that is not is refused.
     */
    public static boolean covers(Instant instant) {
        return !instant.isBefore(FIRST) && instant.isBefore(AFTER_LAST);
    }

    private static final Instant FIRST = LocalDate.of(LocalCalendar.FIRST_YEAR, 1, 1)
            .atStartOfDay(ZoneOffset.UTC)
            .toInstant();
    private static final Instant AFTER_LAST = LocalDate.of(LocalCalendar.LAST_YEAR + 1, 1, 1)
            .atStartOfDay(ZoneOffset.UTC)
            .toInstant();

    public static OccurrenceCalculator of(Schedule schedule) {
        var rules = schedule.zone().getRules();
        OccurrenceSource source = switch (schedule.expression()) {
            case CronExpression cron -> new CronOccurrences(cron, rules);
            case RateExpression rate -> new RateOccurrences(rate, rules);
            case AtExpression at -> new AtOccurrences(at, rules);
            case RecurrenceExpression recurrence -> new RecurrenceOccurrences(recurrence, rules);
        };
        return new OccurrenceCalculator(schedule, source, Exclusions.NONE);
    }

    /**
     * A job's occurrences: the schedule's minus its calendar and blackouts (decision 0034). Every path that
     * asks which occurrences a job has (catch-up, the watchdog, replay, {@code plan}) asks this one, so an
     * excluded occurrence is never due, never missed and never caught up.
     */
    public static OccurrenceCalculator of(Schedule schedule, Exclusions exclusions) {
        OccurrenceCalculator plain = of(schedule);
        if (exclusions.isEmpty()) {
            return plain;
        }
        return new OccurrenceCalculator(schedule, new ExcludingOccurrences(plain.source, exclusions), exclusions);
    }

    /** Why the schedule's occurrence at the instant is not one of the job's, if it is excluded. */
    public Optional<ExcludedSpan> excluded(Instant instant) {
        return exclusions.covering(instant);
    }

    public Exclusions exclusions() {
        return exclusions;
    }

    public Schedule schedule() {
        return schedule;
    }

    /** The first occurrence strictly after {@code after}. */
    public Optional<Instant> next(Instant after) {
        return instant(source.nextAfter(after.getEpochSecond()));
    }

    /** The last occurrence strictly before {@code before}. */
    public Optional<Instant> previous(Instant before) {
        return instant(source.previousBefore(ceilSeconds(before)));
    }

    /** Whether the schedule runs exactly at {@code instant}. */
    public boolean isOccurrence(Instant instant) {
        return instant.getNano() == 0 && source.nextAfter(instant.getEpochSecond() - 1) == instant.getEpochSecond();
    }

    /** How many occurrences lie strictly between the two instants, without holding them in memory. */
    public long count(Instant afterExclusive, Instant beforeExclusive) {
        return source.countBetween(afterExclusive.getEpochSecond(), ceilSeconds(beforeExclusive));
    }

    /**
     * The occurrences in [from, to), oldest first.
     *
     * @throws IllegalArgumentException when there are more than {@code limit}
     */
    public List<Instant> between(Instant fromInclusive, Instant toExclusive, int limit) {
        List<Instant> instants = new ArrayList<>();
        for (TimelineEntry entry :
                timeline(fromInclusive, toExclusive, limit == Integer.MAX_VALUE ? limit : limit + 1)) {
            if (entry instanceof Occurrence occurrence) {
                instants.add(occurrence.instant());
            }
        }
        if (instants.size() > limit) {
            throw new IllegalArgumentException(
                    "more than " + limit + " occurrences between " + fromInclusive + " and " + toExclusive);
        }
        return instants;
    }

    /**
     * Occurrences in [from, to), oldest first, at most {@code maxOccurrences} of them, together with
     * the local times daylight saving skipped among them; for previews such as {@code plan}.
     */
    public List<TimelineEntry> timeline(Instant fromInclusive, Instant toExclusive, int maxOccurrences) {
        return source.timeline(ceilSeconds(fromInclusive), ceilSeconds(toExclusive), maxOccurrences);
    }

    private static long ceilSeconds(Instant instant) {
        return instant.getNano() == 0 ? instant.getEpochSecond() : instant.getEpochSecond() + 1;
    }

    private static Optional<Instant> instant(long epochSecond) {
        return epochSecond == OccurrenceSource.NONE
                ? Optional.empty()
                : Optional.of(Instant.ofEpochSecond(epochSecond));
    }
}
