package dev.punctual.time;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.util.Optional;

/**
 * One time a schedule runs.
 *
 * @param repeatedBy the fall-back transition when the local time happened twice and the schedule
 *     runs once, at the earlier instant; null otherwise
 */
public record Occurrence(Instant instant, LocalDateTime localTime, ZoneOffset offset, ZoneOffsetTransition repeatedBy)
        implements TimelineEntry {

    public OffsetDateTime local() {
        return OffsetDateTime.of(localTime, offset);
    }

    public boolean inRepeatedHour() {
        return repeatedBy != null;
    }

    @Override
    public Instant position() {
        return instant;
    }

    @Override
    public Optional<String> note() {
        if (repeatedBy == null) {
            return Optional.empty();
        }
        return Optional.of("local time " + localTime.toLocalTime() + " occurs twice (clocks go back from "
                + repeatedBy.getDateTimeBefore().toLocalTime() + " to "
                + repeatedBy.getDateTimeAfter().toLocalTime() + "); runs once, at the first (" + offset + ")");
    }
}
