package dev.punctual.jepsen;

import dev.punctual.jepsen.HistoryChecker.Check;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The operators' skips of single occurrences against the claims (decision 0033): a skipped occurrence
 * cannot start, a started one cannot be skipped, and a claim is refused by a skip only when someone
 * planned one. Kept apart from {@link HistoryChecker}'s lease checks: a skip holds no lease.
 *
 * <ul>
 *   <li>{@link Check#SKIP_IGNORED}: an occurrence whose skip was planned was claimed anyway, and no
 *       unskip removing it can be placed between the two, nor a give-back of that claim before the skip;
 *   <li>{@link Check#SKIP_UNFOUNDED}: a claim was answered {@code OperatorSkipped} though no skip of the
 *       occurrence was planned (or possibly planned: its call failed) before the claim returned;
 *   <li>{@link Check#SKIP_LOST}: an occurrence's last planned skip came after every unskip of it, and the
 *       ledger holds no operator's skip for it in the end.
 * </ul>
 *
 * An operation whose call threw (ERROR) may or may not have taken effect, so it counts both ways: as a
 * possible plan for {@code SKIP_UNFOUNDED}, and as a possible removal for the other two.
 */
final class SkipChecks {

    interface Anomalies {
        void report(Check check, String message, List<String> evidence);
    }

    private static final String PLANNED = "Planned";
    private static final String REMOVED = "Removed";

    private final Map<String, List<Op>> byOccurrence;
    private final FinalState state;
    private final Anomalies anomalies;

    private SkipChecks(List<Op> history, FinalState state, Anomalies anomalies) {
        this.byOccurrence = history.stream()
                .filter(o -> o.job() != null && o.occ() != null)
                .collect(Collectors.groupingBy(Op::occurrenceKey));
        this.state = state;
        this.anomalies = anomalies;
    }

    /** Runs the three checks on a history sorted by invocation time, adding the skips' figures. */
    static void check(List<Op> history, FinalState state, Anomalies anomalies, Map<String, Long> figures) {
        SkipChecks checks = new SkipChecks(history, state, anomalies);
        checks.byOccurrence.forEach(checks::occurrence);
        figures.put("skips.planned", count(history, Op.Kind.SKIP_PLAN, PLANNED));
        figures.put(
                "skips.refused",
                history.stream()
                        .filter(o -> o.kind() == Op.Kind.SKIP_PLAN && !PLANNED.equals(o.result()))
                        .filter(o -> !Op.ERROR.equals(o.result()))
                        .count());
        figures.put("skips.removed", count(history, Op.Kind.UNSKIP, REMOVED));
        figures.put("skips.met", count(history, Op.Kind.SKIP_ACT, Op.OK));
        figures.put("claims.operatorSkipped", count(history, Op.Kind.CLAIM, "OperatorSkipped"));
    }

    private static long count(List<Op> history, Op.Kind kind, String result) {
        return history.stream()
                .filter(o -> o.kind() == kind && result.equals(o.result()))
                .count();
    }

    private void occurrence(String occurrence, List<Op> ops) {
        List<Op> planned = of(ops, Op.Kind.SKIP_PLAN, PLANNED);
        List<Op> mayBePlanned = ops.stream()
                .filter(o -> o.kind() == Op.Kind.SKIP_PLAN)
                .filter(o -> PLANNED.equals(o.result()) || Op.ERROR.equals(o.result()))
                .toList();
        List<Op> mayBeRemoved = ops.stream()
                .filter(o -> o.kind() == Op.Kind.UNSKIP)
                .filter(o -> REMOVED.equals(o.result()) || Op.ERROR.equals(o.result()))
                .toList();
        List<Op> claimed = of(ops, Op.Kind.CLAIM, "Claimed");
        for (Op skip : planned) {
            for (Op claim : claimed) {
                // An unskip whose call overlaps the span from the skip's start to the claim's return may
                // have taken effect between them.
                boolean unskippedBetween =
                        mayBeRemoved.stream().anyMatch(u -> u.t0() < claim.t1() && u.t1() > skip.t0());
                if (!unskippedBetween && !givenBackBefore(ops, claim, skip)) {
                    anomalies.report(
                            Check.SKIP_IGNORED,
                            occurrence + " was claimed though an operator's skip of it was planned, with no"
                                    + " unskip that could come between",
                            List.of(skip.brief(), claim.brief()));
                }
            }
        }
        for (Op claim : of(ops, Op.Kind.CLAIM, "OperatorSkipped")) {
            if (mayBePlanned.stream().noneMatch(p -> p.t0() < claim.t1())) {
                anomalies.report(
                        Check.SKIP_UNFOUNDED,
                        occurrence + " was refused as skipped by an operator, and no skip of it was planned"
                                + " before that claim returned",
                        List.of(claim.brief()));
            }
        }
        lost(occurrence, planned, mayBeRemoved);
    }

    /**
     * A claim that returned before the skip did and gave its run back (a completion with a SKIPPED
     * outcome, such as the runtime's DEFERRED) sent before the skip returned: the occurrence was claimable
     * again, so the skip may be planned after it.
     */
    private static boolean givenBackBefore(List<Op> ops, Op claim, Op skip) {
        return claim.t1() < skip.t1()
                && ops.stream()
                        .filter(o -> o.kind() == Op.Kind.COMPLETE && Objects.equals(o.token(), claim.token()))
                        .filter(o -> "SKIPPED".equals(o.outcome()))
                        .filter(o -> "Completed".equals(o.result()) || Op.ERROR.equals(o.result()))
                        .anyMatch(o -> o.t0() < skip.t1());
    }

    private void lost(String occurrence, List<Op> planned, List<Op> mayBeRemoved) {
        if (!state.read() || planned.isEmpty()) {
            return;
        }
        Op last = planned.get(planned.size() - 1);
        if (mayBeRemoved.stream().anyMatch(u -> u.t1() >= last.t0())) {
            return;
        }
        FinalState.StoredRun stored = state.runs().get(occurrence);
        if (stored == null || !stored.operatorSkip() || !"SKIPPED".equals(stored.status())) {
            anomalies.report(
                    Check.SKIP_LOST,
                    occurrence + " was last skipped by an operator after every unskip, and the ledger holds " + stored,
                    List.of(last.brief()));
        }
    }

    private static List<Op> of(List<Op> ops, Op.Kind kind, String result) {
        return ops.stream()
                .filter(o -> o.kind() == kind && result.equals(o.result()))
                .toList();
    }
}
