package dev.punctual.time;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A calendar applied to one job (decision 0034): its dates are read in the job's own zone, so a holiday in
 * Korea is the 24 hours of that date in Asia/Seoul, and a job at {@code 0 9 * * *} Pacific/Kiritimati on
 * 2027-01-01 is on 2027-01-01 there, whatever the date in UTC.
 *
 * @param businessDaysOnly also exclude Saturdays and Sundays ("business days of the calendar"); without
 *     it only the calendar's own dates are excluded
 * @param zone the job's zone
 */
public record CalendarRule(HolidayCalendar calendar, boolean businessDaysOnly, ZoneId zone) implements Exclusion {

    /** How many excluded dates in a row one span joins at most: a long closure is still found quickly. */
    private static final int LONGEST_RUN = 400;

    public CalendarRule {
        Objects.requireNonNull(calendar, "calendar");
        Objects.requireNonNull(zone, "zone");
    }

    /** Why the date is excluded, or empty when the job runs on it (or the calendar does not cover it). */
    public Optional<String> why(LocalDate date) {
        Optional<String> listed = calendar.excluded(date)
                .map(what ->
                        date + " is " + (what.isEmpty() ? "a closing day" : what) + " in calendar " + calendar.name());
        if (listed.isPresent()) {
            return listed;
        }
        if (businessDaysOnly && weekend(date)) {
            return Optional.of(date + " is a " + name(date.getDayOfWeek()) + " (business days of calendar "
                    + calendar.name() + ")");
        }
        return Optional.empty();
    }

    /**
     * When the occurrence's date (in the job's zone) lies past the calendar's end (or before its start), a
     * sentence saying so: the job is refused there (CALENDAR_ENDED) rather than run on a date nobody has
     * checked. A weekend under a business-days rule is excluded whatever the range.
     */
    public Optional<String> beyondRange(Instant occurrence) {
        LocalDate date = LocalDate.ofInstant(occurrence, zone);
        if (calendar.covers(date) || why(date).isPresent()) {
            return Optional.empty();
        }
        return Optional.of("calendar " + calendar.name() + " covers " + calendar.firstDay() + " .. "
                + calendar.lastDay() + ", not " + date + " (" + zone.getId() + "): add the year's dates to it");
    }

    @Override
    public Optional<ExcludedSpan> covering(Instant instant) {
        LocalDate date = LocalDate.ofInstant(instant, zone);
        Optional<String> why = why(date);
        if (why.isEmpty()) {
            return Optional.empty();
        }
        LocalDate first = date;
        while (date.toEpochDay() - first.toEpochDay() < LONGEST_RUN
                && why(first.minusDays(1)).isPresent()) {
            first = first.minusDays(1);
        }
        LocalDate last = date;
        while (last.toEpochDay() - date.toEpochDay() < LONGEST_RUN
                && why(last.plusDays(1)).isPresent()) {
            last = last.plusDays(1);
        }
        return Optional.of(span(first, last, why.get()));
    }

    @Override
    public List<ExcludedSpan> overlapping(Instant from, Instant to) {
        List<ExcludedSpan> spans = new ArrayList<>();
        LocalDate last = LocalDate.ofInstant(to, zone);
        for (LocalDate date = LocalDate.ofInstant(from, zone); !date.isAfter(last); date = date.plusDays(1)) {
            Optional<String> why = why(date);
            if (why.isPresent()) {
                ExcludedSpan span = span(date, date, why.get());
                if (span.until().isAfter(from) && span.from().isBefore(to)) {
                    spans.add(span);
                }
            }
        }
        return spans;
    }

    @Override
    public String describe() {
        return (businessDaysOnly ? "business days of " : "not on the dates of ") + "calendar " + calendar.name()
                + " (" + calendar.firstDay() + " .. " + calendar.lastDay() + ", "
                + calendar.dates().size()
                + " dates)";
    }

    /** The dates' instants in the zone: from the first's start of day to the start of the day after the last. */
    private ExcludedSpan span(LocalDate first, LocalDate last, String why) {
        return new ExcludedSpan(
                first.atStartOfDay(zone).toInstant(),
                last.plusDays(1).atStartOfDay(zone).toInstant(),
                ExcludedSpan.Kind.CALENDAR,
                why);
    }

    private static boolean weekend(LocalDate date) {
        return date.getDayOfWeek() == DayOfWeek.SATURDAY || date.getDayOfWeek() == DayOfWeek.SUNDAY;
    }

    private static String name(DayOfWeek day) {
        String name = day.name();
        return name.charAt(0) + name.substring(1).toLowerCase(java.util.Locale.ROOT);
    }
}
