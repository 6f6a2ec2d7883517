package dev.punctual.catchup;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** What one invocation does about the occurrences since the job's cursor. */
public sealed interface CatchUpPlan {

    /**
     * Run these occurrences now, oldest first; the last is the trigger. Record {@code missed} (all of
     * which come before {@code runNow}) before running anything, so a crash cannot lose them; the
     * cursor may then move to {@code missed.last()}.
     */
    record Run(List<Instant> runNow, Optional<MissedRange> missed) implements CatchUpPlan {
        public Run {
            runNow = List.copyOf(runNow);
            if (runNow.isEmpty()) {
                throw new IllegalArgumentException("a run plan runs at least the trigger");
            }
            if (missed.isPresent() && !missed.get().last().isBefore(runNow.get(0))) {
                throw new IllegalArgumentException("missed occurrences must precede the ones run");
            }
        }

        public Instant trigger() {
            return runNow.get(runNow.size() - 1);
        }
    }

    /**
     * The trigger is not after the cursor: it was done already (or given up as missed). A late or
     * repeated delivery; nothing to run.
     */
    record AlreadyCovered(Instant cursor, Instant trigger) implements CatchUpPlan {}
}
