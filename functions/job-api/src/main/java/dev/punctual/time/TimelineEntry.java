package dev.punctual.time;

import java.time.Instant;
import java.util.Optional;

/** What a schedule does around one local time: it runs ({@link Occurrence}) or DST skips it ({@link SkippedLocalTime}). */
public sealed interface TimelineEntry permits Occurrence, SkippedLocalTime {

    /** Where the entry sits on the time line: the occurrence, or the transition that skipped it. */
    Instant position();

    /** A sentence for people when daylight saving changed something here, else empty. */
    Optional<String> note();
}
