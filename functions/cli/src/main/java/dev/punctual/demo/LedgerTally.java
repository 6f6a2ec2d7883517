package dev.punctual.demo;

import dev.punctual.catchup.MissedRange;
import dev.punctual.ledger.RunStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One job's occurrences in the window, each counted once: its run item decides when it has one, a
 * missed range only when it has none. A skipped occurrence that catch-up later covered with a missed
 * range is a skip (its run item says why), so the categories add up to {@link #occurrences}.
 *
 * @param skippedInMissedRange how many of the skips a missed range also covers (counted as skipped)
 */
record LedgerTally(
        int occurrences, int succeeded, int skipped, int failed, int missed, int unrecorded, int skippedInMissedRange) {

    static final String LEGEND = """
            OCCURRENCES: what the schedule has in the window (a local time the DST change skips has none)
            SUCCEEDED:   its run item says it ran and committed
            SKIPPED:     its run item says why it did not run (maintenance, refused in this stage); listed below
            FAILED:      its run item says its last attempt failed, or died holding the lease
            MISSED:      no run item: catch-up gave up on it and recorded it in a missed range (one ledger
                         record per range, with a count)
            UNRECORDED:  neither a finished run item nor a missed range (a lost delivery still owed)
            """;

    static LedgerTally of(
            List<Instant> occurrences, Function<Instant, Optional<RunStatus>> status, List<MissedRange> ranges) {
        int succeeded = 0;
        int skipped = 0;
        int failed = 0;
        int missed = 0;
        int unrecorded = 0;
        int skippedInRange = 0;
        for (Instant occurrence : occurrences) {
            boolean inRange =
                    ranges.stream().anyMatch(r -> !occurrence.isBefore(r.first()) && !occurrence.isAfter(r.last()));
            switch (status.apply(occurrence).orElse(null)) {
                case SUCCEEDED -> succeeded++;
                case SKIPPED -> {
                    skipped++;
                    skippedInRange += inRange ? 1 : 0;
                }
                case FAILED, ABANDONED -> failed++;
                case MISSED -> missed++;
                case RUNNING -> unrecorded++;
                case null -> {
                    if (inRange) {
                        missed++;
                    } else {
                        unrecorded++;
                    }
                }
            }
        }
        return new LedgerTally(occurrences.size(), succeeded, skipped, failed, missed, unrecorded, skippedInRange);
    }
}
