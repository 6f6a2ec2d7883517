package dev.punctual.time;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Something that takes occurrences out of a job's schedule: a calendar's dates in the job's zone, or a
 * blackout window (decision 0034). Pure: every question names its instant.
 */
public interface Exclusion {

    /** The excluded span that contains the instant, if any. */
    Optional<ExcludedSpan> covering(Instant instant);

    /** The excluded spans that overlap [from, to), oldest first. */
    List<ExcludedSpan> overlapping(Instant from, Instant to);

    /** One line for {@code jobs} and {@code plan}, e.g. {@code business days of kr-public-holidays}. */
    String describe();
}
