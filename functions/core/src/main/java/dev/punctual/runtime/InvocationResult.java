package dev.punctual.runtime;

import dev.punctual.catchup.MissedRange;
import dev.punctual.outcome.Reason;
import dev.punctual.outcome.Verdict;
import java.util.List;
import java.util.Optional;

/**
 * What the handler returns (and the CLI prints): per occurrence PASS, SKIP or FAIL with a reason.
 *
 * @param kind scheduled, run, replay or ping; null for a payload that could not be read
 * @param missed occurrences the catch-up plan gave up, as one range
 * @param notRun replay occurrences left for another replay: beyond {@code max}, or after a refusal stopped it
 * @param error why the payload was refused; then nothing was written
 * @param conditions a ping's evaluation of the catalog's maintenance conditions (decision 0036, 5); empty
 *     for every other kind
 */
public record InvocationResult(
        String stage,
        String kind,
        String job,
        List<OccurrenceReport> occurrences,
        Optional<MissedRange> missed,
        long notRun,
        Optional<InvalidPayload> error,
        List<ConditionState> conditions) {

    public InvocationResult {
        occurrences = List.copyOf(occurrences);
        conditions = List.copyOf(conditions);
    }

    public InvocationResult(
            String stage,
            String kind,
            String job,
            List<OccurrenceReport> occurrences,
            Optional<MissedRange> missed,
            long notRun,
            Optional<InvalidPayload> error) {
        this(stage, kind, job, occurrences, missed, notRun, error, List.of());
    }

    public static InvocationResult invalid(String stage, InvalidPayload problem) {
        return new InvocationResult(stage, null, null, List.of(), Optional.empty(), 0, Optional.of(problem));
    }

    public boolean valid() {
        return error.isEmpty();
    }

    public boolean anyFailed() {
        return occurrences.stream().anyMatch(o -> o.verdict() == Verdict.FAIL);
    }

    /**
     * The refusal (maintenance, a busy lock group, ...) that stopped a replay before its range was done,
     * if one did: the replay did not do what was asked, though nothing failed.
     */
    public Optional<Reason> stoppedBy() {
        if (!"replay".equals(kind) || occurrences.isEmpty()) {
            return Optional.empty();
        }
        Reason last = occurrences.get(occurrences.size() - 1).reason();
        return last.refusesTheJob() ? Optional.of(last) : Optional.empty();
    }
}
