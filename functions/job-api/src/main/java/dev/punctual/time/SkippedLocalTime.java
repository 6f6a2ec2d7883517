package dev.punctual.time;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.zone.ZoneOffsetTransition;
import java.util.Optional;

/** A local time the expression matches that does not exist in the zone (spring forward): no run. */
public record SkippedLocalTime(LocalDateTime localTime, ZoneOffsetTransition gap) implements TimelineEntry {

    @Override
    public Instant position() {
        return gap.getInstant();
    }

    @Override
    public Optional<String> note() {
        return Optional.of("local time " + localTime + " does not exist (clocks jump from "
                + gap.getDateTimeBefore().toLocalTime() + " to "
                + gap.getDateTimeAfter().toLocalTime() + "); skipped, as EventBridge Scheduler does");
    }
}
