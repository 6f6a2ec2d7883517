package dev.punctual.catchup;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A job's start deadline (decision 0032): the one rule, shared by the live path, catch-up, replay and
 * {@code plan}, of when an occurrence is too late to start. Pure: the caller passes its clock's now.
 *
 * @param deadline how long after its time an occurrence may still start; positive
 */
public record StartDeadline(Duration deadline) {

    public StartDeadline {
        Objects.requireNonNull(deadline, "deadline");
        if (!deadline.isPositive()) {
            throw new IllegalArgumentException("startDeadline must be positive, was " + deadline);
        }
    }

    /** An occurrence judged too late: when it had to start by and how late it came. */
    public record TooLate(Instant occurrence, Instant latestStart, Duration deadline, Duration lateness) {

        /** What the run item and the outcome line say, e.g. {@code latest start ...Z (startDeadline PT10M), 1 ms late}. */
        public String detail() {
            return "latest start " + latestStart + " (startDeadline " + deadline + "), " + late(lateness) + " late";
        }

        private static String late(Duration d) {
            return d.compareTo(Duration.ofSeconds(1)) < 0
                    ? d.toMillis() + " ms"
                    : d.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
        }
    }

    /** The latest instant the occurrence may start: its time plus the deadline, inclusive. */
    public Instant latestStart(Instant occurrence) {
        return occurrence.plus(deadline);
    }

    /**
     * Whether starting {@code occurrence} at {@code now} is too late: strictly after its latest start (at the
     * latest start itself it still runs). Empty when it may start.
     */
    public Optional<TooLate> judge(Instant occurrence, Instant now) {
        Instant latest = latestStart(occurrence);
        if (!now.isAfter(latest)) {
            return Optional.empty();
        }
        return Optional.of(new TooLate(occurrence, latest, deadline, Duration.between(latest, now)));
    }

    /** The rule for a job's optional deadline: nothing is ever too late without one. */
    public static Optional<TooLate> judge(Optional<Duration> deadline, Instant occurrence, Instant now) {
        return deadline.flatMap(d -> new StartDeadline(d).judge(occurrence, now));
    }
}
