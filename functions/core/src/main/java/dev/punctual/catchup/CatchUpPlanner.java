package dev.punctual.catchup;

import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Decides, for one invocation, which occurrences run and which are given up. A pure function of its
 * inputs.
 *
 * <p>The job's progress is a single cursor (the last occurrence done), so what runs must be a
 * contiguous tail of the occurrences since the cursor, ending with the trigger: anything run out of
 * order would leave an earlier occurrence behind the cursor. The planner therefore keeps the newest
 * occurrences the policy allows and records everything before them as one missed range. Replanning
 * with a cursor advanced to any occurrence of a previous plan sees only later occurrences, so none
 * runs twice, and every occurrence after the cursor is either run or counted as missed.
 *
 * <p>Cost: at most {@code maxOccurrences} backward steps plus one forward count of the missed
 * occurrences, which holds none of them in memory.
 */
public final class CatchUpPlanner {
    private CatchUpPlanner() {}

    public static CatchUpPlan plan(CatchUpPolicy policy, Optional<Instant> cursor, Instant trigger, Schedule schedule) {
        return plan(policy, cursor, trigger, OccurrenceCalculator.of(schedule));
    }

    public static CatchUpPlan plan(
            CatchUpPolicy policy, Optional<Instant> cursor, Instant trigger, OccurrenceCalculator occurrences) {
        if (cursor.isEmpty()) {
            return new CatchUpPlan.Run(List.of(trigger), Optional.empty());
        }
        Instant done = cursor.get();
        if (!trigger.isAfter(done)) {
            return new CatchUpPlan.AlreadyCovered(done, trigger);
        }
        Deque<Instant> replay = replay(policy, done, trigger, occurrences);
        Instant firstRun = replay.isEmpty() ? trigger : replay.getFirst();
        List<Instant> runNow = new ArrayList<>(replay);
        runNow.add(trigger);
        return new CatchUpPlan.Run(runNow, missed(done, firstRun, occurrences));
    }

    /** The newest missed occurrences the policy replays, walking back from the trigger. */
    private static Deque<Instant> replay(
            CatchUpPolicy policy, Instant done, Instant trigger, OccurrenceCalculator occurrences) {
        Instant oldestAllowed = trigger.minus(policy.maxAge());
        Deque<Instant> replay = new ArrayDeque<>();
        Instant before = trigger;
        while (replay.size() < policy.replayBudget()) {
            Optional<Instant> previous = occurrences.previous(before);
            if (previous.isEmpty()
                    || !previous.get().isAfter(done)
                    || previous.get().isBefore(oldestAllowed)) {
                break;
            }
            replay.addFirst(previous.get());
            before = previous.get();
        }
        return replay;
    }

    private static Optional<MissedRange> missed(Instant done, Instant firstRun, OccurrenceCalculator occurrences) {
        long count = occurrences.count(done, firstRun);
        if (count == 0) {
            return Optional.empty();
        }
        Instant first = occurrences.next(done).orElseThrow();
        Instant last = occurrences.previous(firstRun).orElseThrow();
        return Optional.of(new MissedRange(first, last, count));
    }
}
