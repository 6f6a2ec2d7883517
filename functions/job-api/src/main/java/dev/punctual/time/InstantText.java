package dev.punctual.time;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one reading of an instant that comes from outside (a payload's times, the CLI's {@code --at},
 * {@code --from}, {@code --to}): ISO-8601 with seconds and {@code Z} or an explicit offset, nothing
 * else. {@link Instant#parse} alone is more lenient than that: it reads {@code 24:00:00} as the next
 * day's midnight and {@code 23:59:60} as a leap second, and both payload and CLI must refuse the same
 * texts.
 */
public final class InstantText {
    private InstantText() {}

    /** What every refusal says is accepted. */
    public static final String ACCEPTED =
            "ISO-8601 with seconds and Z or an offset, e.g. 2026-11-29T14:00:00Z or" + " 2026-11-29T23:00:00+09:00";

    // ASCII digits only (\d is ASCII in java.util.regex unless UNICODE_CHARACTER_CLASS is set); at most
    // nine fraction digits; an upper-case T and Z as written everywhere in Punctual's own output.
    private static final Pattern FORM = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?(Z|[+-]\\d{2}:\\d{2})");

    /** The instant, or empty when the text is not one (see {@link #problem}). */
    public static Optional<Instant> parse(String text) {
        return problem(text).isEmpty() ? Optional.of(read(text)) : Optional.empty();
    }

    /** Why {@code text} is not an instant, or empty when it is one. */
    public static Optional<String> problem(String text) {
        if (text == null || text.length() > 40) {
            return Optional.of("is not an instant");
        }
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            return Optional.of("is not an instant");
        }
        if (Integer.parseInt(m.group(4)) > 23) {
            return Optional.of("has hour " + m.group(4) + " (00-23; midnight is 00:00:00 of the next day)");
        }
        if (Integer.parseInt(m.group(6)) > 59) {
            return Optional.of("has second " + m.group(6) + " (00-59; leap seconds are not counted)");
        }
        try {
            read(text);
            return Optional.empty();
        } catch (DateTimeException e) {
            return Optional.of("is not a valid date-time (" + e.getMessage() + ")");
        }
    }

    private static Instant read(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new DateTimeException("not an instant");
        }
        String fraction = m.group(7) == null ? "0" : (m.group(7) + "00000000").substring(0, 9);
        LocalDateTime local = LocalDateTime.of(
                Integer.parseInt(m.group(1)),
                Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)),
                Integer.parseInt(m.group(4)),
                Integer.parseInt(m.group(5)),
                Integer.parseInt(m.group(6)),
                Integer.parseInt(fraction));
        ZoneOffset offset = m.group(8).equals("Z") ? ZoneOffset.UTC : ZoneOffset.of(m.group(8));
        return OffsetDateTime.of(local, offset).toInstant();
    }
}
