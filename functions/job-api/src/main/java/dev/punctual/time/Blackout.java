package dev.punctual.time;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A window in which a job has no occurrences (decision 0034): one-off ("the migration, 2027-01-15
 * 02:00-06:00 Asia/Seoul") or recurring in a zone ("every day 23:00-01:00 Europe/Berlin", optionally on
 * some days of the week only). An occurrence whose time lies in the window is recorded as a SKIP BLACKOUT
 * with the window's reason and is not counted as missed; occurrences after the window run as usual.
 *
 * <p>The window is half-open: an occurrence at its first minute is inside, one at its end is not. A
 * recurring window's local times are read on each day in its zone; one that crosses midnight belongs to
 * the day it starts (and {@code days} filters by that day). Across daylight saving the window covers every
 * local time between its ends: a start in a spring-forward gap moves later by the gap (as {@code
 * java.time} does), a start in a fall-back overlap takes the earlier instant and an end there the later.
 *
 * @param reason one line for people, shown on every skip it causes
 */
public record Blackout(Window window, String reason) implements Exclusion {

    /** When a blackout holds. */
    public sealed interface Window {
        String describe();
    }

    /** A one-off window between two instants. */
    public record Once(Instant from, Instant until) implements Window {
        public Once {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(until, "until");
            if (!until.isAfter(from)) {
                throw new ScheduleExpressionException(
                        "blackout", from + " .. " + until, "ends before it starts", "an end after the start");
            }
        }

        @Override
        public String describe() {
            return from + " .. " + until;
        }
    }

    /** A window at the same local times on each (selected) day in a zone. */
    public record Daily(LocalTime from, LocalTime to, ZoneId zone, Set<DayOfWeek> days) implements Window {
        public Daily {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(zone, "zone");
            if (from.equals(to)) {
                throw new ScheduleExpressionException(
                        "blackout", from + "-" + to, "is empty", "two different local times, e.g. 23:00-01:00");
            }
            days = days == null || days.isEmpty() ? EnumSet.allOf(DayOfWeek.class) : EnumSet.copyOf(days);
        }

        @Override
        public String describe() {
            String on = days.size() == 7
                    ? "every day"
                    : days.stream()
                            .map(d -> d.getDisplayName(java.time.format.TextStyle.SHORT, java.util.Locale.ROOT))
                            .collect(Collectors.joining(",", "on ", ""));
            return on + " " + from + "-" + to + " " + zone.getId();
        }

        /** The window that starts on the date, if the date is one of its days. */
        Optional<ExcludedSpan> on(LocalDate date, String why) {
            if (!days.contains(date.getDayOfWeek())) {
                return Optional.empty();
            }
            Instant start = instant(date.atTime(from), zone, true);
            LocalDate endDate = to.isAfter(from) ? date : date.plusDays(1);
            Instant end = instant(endDate.atTime(to), zone, false);
            if (!end.isAfter(start)) {
                // Both ends in one spring-forward gap: no local time of the window happened that day.
                return Optional.empty();
            }
            return Optional.of(new ExcludedSpan(start, end, ExcludedSpan.Kind.BLACKOUT, why));
        }
    }

    public Blackout {
        Objects.requireNonNull(window, "window");
        if (reason == null || reason.isBlank()) {
            throw new ScheduleExpressionException(
                    "blackout reason",
                    String.valueOf(reason),
                    "is missing",
                    "one line saying why, e.g. \"db migration\"");
        }
        if (reason.contains("\n") || reason.length() > 200) {
            throw new ScheduleExpressionException(
                    "blackout reason", reason, "is not one short line", "one line of at most 200 characters");
        }
    }

    /** A one-off window between two instants. */
    public static Blackout once(Instant from, Instant until, String reason) {
        return new Blackout(new Once(from, until), reason);
    }

    /** A one-off window between two local times in a zone, e.g. {@code 2027-01-15T02:00} to {@code ...T06:00}. */
    public static Blackout once(
            java.time.LocalDateTime from, java.time.LocalDateTime until, String zone, String reason) {
        ZoneId id = Schedule.zone(zone);
        return once(instant(from, id, true), instant(until, id, false), reason);
    }

    /** Every day from one local time to another in a zone; {@code from} after {@code to} crosses midnight. */
    public static Blackout daily(LocalTime from, LocalTime to, String zone, String reason) {
        return new Blackout(new Daily(from, to, Schedule.zone(zone), Set.of()), reason);
    }

    /** The same window on the given days of the week only (the days it starts on). */
    public Blackout on(DayOfWeek first, DayOfWeek... more) {
        if (!(window instanceof Daily daily)) {
            throw new ScheduleExpressionException(
                    "blackout",
                    window.describe(),
                    "is one-off; only a daily window has days",
                    "Blackout.daily(...).on(...)");
        }
        return new Blackout(new Daily(daily.from(), daily.to(), daily.zone(), EnumSet.of(first, more)), reason);
    }

    /**
     * A window's end as an instant, covering every local time between the ends: in a spring-forward gap
     * (a local time that never happened) the transition itself, so the first local time after the gap is
     * inside a window that starts in it; in a fall-back overlap the earlier instant for a start and the
     * later for an end.
     */
    static Instant instant(java.time.LocalDateTime local, ZoneId zone, boolean start) {
        var rules = zone.getRules();
        if (rules.getValidOffsets(local).isEmpty()) {
            return rules.getTransition(local).getInstant();
        }
        ZonedDateTime zoned = ZonedDateTime.of(local, zone);
        return (start ? zoned.withEarlierOffsetAtOverlap() : zoned.withLaterOffsetAtOverlap()).toInstant();
    }

    @Override
    public Optional<ExcludedSpan> covering(Instant instant) {
        return switch (window) {
            case Once once ->
                once.from().isAfter(instant) || !once.until().isAfter(instant)
                        ? Optional.empty()
                        : Optional.of(span(once.from(), once.until()));
            case Daily daily -> {
                LocalDate date = LocalDate.ofInstant(instant, daily.zone());
                for (LocalDate start : List.of(date.minusDays(1), date)) {
                    Optional<ExcludedSpan> span = daily.on(start, why());
                    if (span.isPresent() && span.get().contains(instant)) {
                        yield span;
                    }
                }
                yield Optional.empty();
            }
        };
    }

    @Override
    public List<ExcludedSpan> overlapping(Instant from, Instant to) {
        List<ExcludedSpan> spans = new ArrayList<>();
        switch (window) {
            case Once once -> {
                if (once.until().isAfter(from) && once.from().isBefore(to)) {
                    spans.add(span(once.from(), once.until()));
                }
            }
            case Daily daily -> {
                LocalDate last = LocalDate.ofInstant(to, daily.zone());
                for (LocalDate d = LocalDate.ofInstant(from, daily.zone()).minusDays(1);
                        !d.isAfter(last);
                        d = d.plusDays(1)) {
                    daily.on(d, why())
                            .filter(s -> s.until().isAfter(from) && s.from().isBefore(to))
                            .ifPresent(spans::add);
                }
            }
        }
        return spans;
    }

    @Override
    public String describe() {
        return "blackout " + window.describe() + ": " + reason;
    }

    private String why() {
        return "blackout " + window.describe() + ": " + reason;
    }

    private ExcludedSpan span(Instant from, Instant until) {
        return new ExcludedSpan(from, until, ExcludedSpan.Kind.BLACKOUT, why());
    }
}
