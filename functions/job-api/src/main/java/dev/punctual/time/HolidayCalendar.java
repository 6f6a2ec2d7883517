package dev.punctual.time;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A named set of dates a job does not run on (public holidays of one country, a company's closing days),
 * valid for a stated range of dates (decision 0034). Dates are calendar dates: which instants they cover
 * depends on the zone of the job that uses the calendar ({@link CalendarRule}).
 *
 * <p>The range matters: a date after {@code lastDay} is one the calendar knows nothing about. A job on
 * that date is not run as if it were an ordinary day; it is refused with {@code CALENDAR_ENDED} and
 * counted as missed, so an out-of-date calendar is alarmed rather than silently wrong (docs/time.md,
 * "Calendars").
 *
 * @param name lower-case letters, digits and '-', e.g. {@code kr-public-holidays}
 * @param firstDay the first date the calendar speaks for
 * @param lastDay the last date the calendar speaks for, inclusive
 * @param dates the excluded dates, each with what it is (e.g. {@code Seollal}), all within the range
 */
public record HolidayCalendar(
        String name, LocalDate firstDay, LocalDate lastDay, NavigableMap<LocalDate, String> dates) {

    private static final String NAME = "[a-z][a-z0-9-]{0,47}";

    public HolidayCalendar {
        if (name == null || !name.matches(NAME)) {
            throw refused(
                    "name",
                    String.valueOf(name),
                    "is not a calendar name",
                    "lower-case letters, digits and" + " '-', starting with a letter, 1-48, e.g. kr-public-holidays");
        }
        Objects.requireNonNull(firstDay, "firstDay");
        Objects.requireNonNull(lastDay, "lastDay");
        if (lastDay.isBefore(firstDay)) {
            throw refused(
                    "covers", firstDay + " .. " + lastDay, "ends before it starts", "FIRST .. LAST, FIRST <= LAST");
        }
        TreeMap<LocalDate, String> copy = new TreeMap<>();
        for (Map.Entry<LocalDate, String> date : dates.entrySet()) {
            if (date.getKey().isBefore(firstDay) || date.getKey().isAfter(lastDay)) {
                throw refused(
                        "date",
                        date.getKey().toString(),
                        "lies outside the calendar's range " + firstDay + " .. " + lastDay,
                        "dates within the range the calendar covers");
            }
            copy.put(date.getKey(), date.getValue() == null ? "" : date.getValue());
        }
        dates = Collections.unmodifiableNavigableMap(copy);
    }

    /** A calendar declared in code. */
    public static HolidayCalendar of(String name, LocalDate firstDay, LocalDate lastDay, Map<LocalDate, String> dates) {
        return new HolidayCalendar(name, firstDay, lastDay, new TreeMap<>(dates));
    }

    /**
     * Reads a calendar file from the class path, where the catalog's module packages it (so it is inside
     * the Lambda's jar): see {@link #parse} for the format.
     *
     * @param anchor a class of the module holding the file, whose class loader finds it
     * @param resource the path inside the jar, e.g. {@code calendars/kr-public-holidays.txt}
     */
    public static HolidayCalendar resource(Class<?> anchor, String resource) {
        try (InputStream in = anchor.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw refused(
                        "calendar file",
                        resource,
                        "is not on the class path of " + anchor.getName(),
                        "a file under the module's src/main/resources, named by its path there");
            }
            return parse(resource, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("reading calendar file " + resource, e);
        }
    }

    /**
     * Parses a calendar file: {@code #} starts a comment; a {@code calendar: NAME} line and a {@code covers:
     * FIRST .. LAST} line, then one {@code YYYY-MM-DD what it is} line per excluded date. Anything else is
     * refused with its line number, so a typo never drops a holiday.
     *
     * @param source where the text came from, named in refusals
     */
    public static HolidayCalendar parse(String source, String text) {
        String name = null;
        LocalDate first = null;
        LocalDate last = null;
        TreeMap<LocalDate, String> dates = new TreeMap<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String where = source + " line " + (i + 1);
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("calendar:")) {
                name = line.substring("calendar:".length()).strip();
            } else if (line.startsWith("covers:")) {
                String[] range = line.substring("covers:".length()).split("\\.\\.", -1);
                if (range.length != 2) {
                    throw refused(where, line, "is not a range", "covers: YYYY-MM-DD .. YYYY-MM-DD");
                }
                first = date(where, range[0].strip());
                last = date(where, range[1].strip());
            } else if (Character.isDigit(line.charAt(0))) {
                String[] parts = line.split("\\s+", 2);
                LocalDate date = date(where, parts[0]);
                if (dates.containsKey(date)) {
                    throw refused(where, parts[0], "is listed twice", "each date once");
                }
                dates.put(date, parts.length > 1 ? parts[1].strip() : "");
            } else {
                throw refused(
                        where,
                        line,
                        "is not a line a calendar file has",
                        "'calendar: NAME', 'covers: FIRST .. LAST', 'YYYY-MM-DD what it is', or '# comment'");
            }
        }
        if (name == null) {
            throw refused(source, "(no calendar: line)", "names no calendar", "a line 'calendar: NAME'");
        }
        if (first == null) {
            throw refused(source, "(no covers: line)", "states no range", "a line 'covers: FIRST .. LAST'");
        }
        return new HolidayCalendar(name, first, last, dates);
    }

    /** Whether the calendar speaks for the date: within [firstDay, lastDay]. */
    public boolean covers(LocalDate date) {
        return !date.isBefore(firstDay) && !date.isAfter(lastDay);
    }

    /** What the date is, when the calendar excludes it. */
    public Optional<String> excluded(LocalDate date) {
        return Optional.ofNullable(dates.get(date));
    }

    private static LocalDate date(String where, String text) {
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw refused(where, text, "is not a date", "YYYY-MM-DD, e.g. 2027-02-08");
        }
    }

    private static ScheduleExpressionException refused(String part, String given, String problem, String accepted) {
        return new ScheduleExpressionException(part, given, problem, accepted);
    }
}
