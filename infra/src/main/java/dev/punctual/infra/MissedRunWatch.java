package dev.punctual.infra;

import dev.punctual.job.JobDefinition;
import java.time.Duration;

/**
 * How one job's missed-run alarm watches it, derived from its {@link Cadence} (see
 * docs/decisions/0004-missed-run-alarms.md).
 *
 * <p>{@link Kind#NO_OUTCOME}: the alarm fires when the job recorded no outcome at all (the sum of its
 * {@code Pass}, {@code Skip} and {@code Fail} metrics) for {@code evaluationPeriods} consecutive
 * periods of {@code period}, missing data counting as breaching. The window is the job's longest
 * expected gap plus {@link #slack}, rounded up to whole periods.
 *
 * <p>CloudWatch evaluates an alarm over at most seven days (Period x EvaluationPeriods at most
 * 604,800 s), and over at most one day when the period is shorter than an hour. A job whose window
 * does not fit (weekly with its slack, monthly, yearly, one-time) gets {@link Kind#MISSED_RECORDED}
 * instead: an alarm on the {@code Missed} and {@code CatchUp} metrics the runtime emits, per job, when a
 * later run finds occurrences that did not run on time (replayed late, or recorded as missed). That one
 * fires a cadence late, and not at all if the job never runs again; the decision note says so.
 *
 * @param window the silence that raises the alarm (zero for {@link Kind#MISSED_RECORDED})
 */
public record MissedRunWatch(Kind kind, Duration window, Duration period, int evaluationPeriods) {

    /** CloudWatch's longest evaluation range of an alarm. */
    public static final Duration MAX_RANGE = Duration.ofDays(7);

    /** CloudWatch's longest evaluation range of an alarm whose period is shorter than an hour. */
    public static final Duration MAX_RANGE_SHORT_PERIOD = Duration.ofDays(1);

    static final Duration SHORT_PERIOD = Duration.ofMinutes(5);
    static final Duration LONG_PERIOD = Duration.ofHours(1);

    /** Metric publication and alarm evaluation lag, on top of delivery retries and the run itself. */
    static final Duration REPORTING_LAG = Duration.ofMinutes(15);

    public enum Kind {
        NO_OUTCOME,
        MISSED_RECORDED
    }

    public static MissedRunWatch forJob(JobDefinition job, Cadence cadence, RetrySettings retries) {
        if (cadence.longestGap().isEmpty()) {
            return missedRecorded();
        }
        Duration window = cadence.longestGap().get().plus(slack(job, retries));
        if (window.compareTo(MAX_RANGE_SHORT_PERIOD) <= 0) {
            return noOutcome(window, SHORT_PERIOD);
        }
        if (window.compareTo(MAX_RANGE) <= 0) {
            return noOutcome(window, LONG_PERIOD);
        }
        return missedRecorded();
    }

    /**
     * How late an on-time occurrence may legitimately report: the scheduler may retry delivery for up
     * to its maximum event age, the run may take the pool's whole timeout, and metrics need a moment.
     */
    public static Duration slack(JobDefinition job, RetrySettings retries) {
        return retries.schedulerMaxEventAge().plus(job.pool().timeout()).plus(REPORTING_LAG);
    }

    private static MissedRunWatch noOutcome(Duration window, Duration period) {
        long periods = (window.toSeconds() + period.toSeconds() - 1) / period.toSeconds();
        return new MissedRunWatch(Kind.NO_OUTCOME, period.multipliedBy(periods), period, Math.toIntExact(periods));
    }

    private static MissedRunWatch missedRecorded() {
        return new MissedRunWatch(Kind.MISSED_RECORDED, Duration.ZERO, LONG_PERIOD, 1);
    }
}
