package dev.punctual.jepsen;

import dev.punctual.jepsen.HistoryChecker.Check;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The operators' pauses (decision 0040) against the claims, kept apart from {@link HistoryChecker}'s lease
 * checks as {@link SkipChecks} is: a pause holds no lease, it is a mark every claim on its item meets.
 *
 * <ul>
 *   <li>{@link Check#PAUSE_IGNORED}: a claim invoked after a pause's write returned, and returned before
 *       the matching resume was invoked (and, for a pause with {@code until}, sent while the claimant's clock
 *       was before it) was granted for an id the paused item covers; or a claim invoked after a span was
 *       kept refused (resumed with SKIP_PAUSED, or lapsed with {@code --then skip}), and returned before a
 *       later pause or resume of the item that could replace the span was invoked, was granted an occurrence
 *       inside it;
 *   <li>{@link Check#PAUSE_UNFOUNDED}: a claim was answered Paused though no pause of an item covering it
 *       was invoked before that claim returned;
 *   <li>{@link Check#PAUSE_RAN}: a process ran the body (a domain write) or completed an occurrence whose
 *       last claim by that process was refused as Paused;
 *   <li>{@link Check#PAUSE_UNRECORDED}: a claim refused as Paused was not followed, by the same process and
 *       before its next claim of the occurrence, by the record of a {@code SKIP PAUSED} of it.
 * </ul>
 *
 * A resume whose call threw (ERROR) may have taken effect from its invocation on, so it ends the window
 * there; a pause whose call threw may have been set, so it founds a refusal but opens no window.
 */
final class PauseChecks {

    private static final String SET = "Set";
    private static final String RESUMED = "Resumed";
    private static final String PAUSED = "Paused";

    private final List<Op> history;
    private final SkipChecks.Anomalies anomalies;

    private PauseChecks(List<Op> history, SkipChecks.Anomalies anomalies) {
        this.history = history;
        this.anomalies = anomalies;
    }

    /** Runs the four checks on a history sorted by invocation time, adding the pauses' figures. */
    static void check(List<Op> history, SkipChecks.Anomalies anomalies, Map<String, Long> figures) {
        PauseChecks checks = new PauseChecks(history, anomalies);
        for (Op pause : checks.of(Op.Kind.PAUSE)) {
            if (is(pause, SET)) {
                checks.windows(pause);
            }
        }
        checks.unfounded();
        checks.ranOrUnrecorded();
        figures.put("pauses.set", count(history, Op.Kind.PAUSE, SET));
        figures.put("pauses.alreadyPaused", count(history, Op.Kind.PAUSE, "AlreadyPaused"));
        figures.put(
                "pauses.lapsing",
                history.stream()
                        .filter(o -> o.kind() == Op.Kind.PAUSE && is(o, SET) && o.until() != null)
                        .count());
        figures.put(
                "resumes.catchUp",
                history.stream()
                        .filter(o -> o.kind() == Op.Kind.RESUME && is(o, RESUMED) && "CATCH_UP".equals(o.outcome()))
                        .count());
        figures.put(
                "resumes.skipPaused",
                history.stream()
                        .filter(o -> o.kind() == Op.Kind.RESUME && is(o, RESUMED) && "SKIP_PAUSED".equals(o.outcome()))
                        .count());
        figures.put("resumes.notPaused", count(history, Op.Kind.RESUME, "NotPaused"));
        figures.put("claims.paused", count(history, Op.Kind.CLAIM, PAUSED));
        // Refused by a span kept refused after its pause ended (sent after the span's end, on the claimant's clock).
        figures.put(
                "claims.pausedBySpan",
                history.stream()
                        .filter(o -> o.kind() == Op.Kind.CLAIM && is(o, PAUSED) && o.pausedTo() != null)
                        .filter(o -> o.c0() >= o.pausedTo())
                        .count());
        figures.put(
                "skips.pausedRecorded",
                history.stream()
                        .filter(o -> o.kind() == Op.Kind.SKIP && "PAUSED".equals(o.outcome()))
                        .count());
    }

    /** The hold window of one pause that was set, and the span kept refused after it, if any. */
    private void windows(Op pause) {
        String item = pause.group();
        Optional<Op> resume = next(item, pause.t0(), Op.Kind.RESUME);
        long holdEnd = resume.map(Op::t0).orElse(Long.MAX_VALUE);
        for (Op claim : granted(item)) {
            // Invoked after the pause returned, and returned before the resume was invoked: every write
            // the claim sent met the mark. A claim overlapping the resume may have written after it (a shared
            // group's slot claim is its second write, and a retried one comes later still).
            boolean holding = claim.t0() > pause.t1()
                    && claim.t1() < holdEnd
                    && (pause.pausedTo() == null || claim.c1() < pause.pausedTo());
            if (holding) {
                anomalies.report(
                        Check.PAUSE_IGNORED,
                        claim.occurrenceKey() + " was claimed after the pause of " + item + " was set and before"
                                + " it was resumed" + (pause.pausedTo() == null ? "" : " or lapsed"),
                        evidence(pause, resume, claim));
            }
        }
        // A pause that lapses with --then skip keeps its span refused until a resume or a new pause.
        if (pause.pausedTo() != null && RecordingLedger.SKIP.equals(pause.outcome())) {
            span(item, pause, pause.pausedFrom(), pause.pausedTo(), pause.t1(), holdEnd);
        }
        resume.filter(r -> is(r, RESUMED) && "SKIP_PAUSED".equals(r.outcome()) && r.pausedTo() != null)
                .ifPresent(r -> span(
                        item,
                        r,
                        r.pausedFrom(),
                        r.pausedTo(),
                        r.t1(),
                        replacedAfter(item, r.t0()).map(Op::t0).orElse(Long.MAX_VALUE)));
    }

    /** Claims invoked in (from, to) granted an occurrence in [spanFrom, spanTo) of an id the item covers. */
    private void span(String item, Op source, long spanFrom, long spanTo, long from, long to) {
        for (Op claim : granted(item)) {
            boolean inside = claim.occ() >= spanFrom && claim.occ() < spanTo;
            if (inside && claim.t0() > from && claim.t1() < to) {
                anomalies.report(
                        Check.PAUSE_IGNORED,
                        claim.occurrenceKey() + " lies in the span of " + item
                                + " kept refused, and was claimed after that",
                        List.of(source.brief(), claim.brief()));
            }
        }
    }

    private void unfounded() {
        for (Op claim : of(Op.Kind.CLAIM)) {
            if (!is(claim, PAUSED)) {
                continue;
            }
            List<String> items = JepsenJobs.pausesOf(claim.job());
            boolean founded = history.stream()
                    .filter(o -> o.kind() == Op.Kind.PAUSE && items.contains(o.group()))
                    .filter(o -> is(o, SET) || is(o, Op.ERROR))
                    .anyMatch(o -> o.t0() < claim.t1());
            if (!founded) {
                anomalies.report(
                        Check.PAUSE_UNFOUNDED,
                        claim.occurrenceKey() + " was refused as paused, and no pause of " + items
                                + " was invoked before that claim returned",
                        List.of(claim.brief()));
            }
        }
    }

    /**
     * Per process, in its own order: after a claim refused as Paused, the next operation on the occurrence
     * must be its SKIP PAUSED record, and no body or completion of it may follow before the next claim.
     */
    private void ranOrUnrecorded() {
        Map<String, Op> lastClaim = new HashMap<>();
        Map<String, Boolean> recorded = new HashMap<>();
        for (Op op : history) {
            if (op.job() == null || op.occ() == null) {
                continue;
            }
            String key = op.proc() + " " + op.occurrenceKey();
            Op refused = lastClaim.get(key);
            boolean pending = refused != null && is(refused, PAUSED);
            switch (op.kind()) {
                case CLAIM -> {
                    unrecorded(pending, recorded.get(key), refused);
                    lastClaim.put(key, op);
                    recorded.put(key, false);
                }
                case SKIP -> {
                    if (pending && "PAUSED".equals(op.outcome())) {
                        recorded.put(key, true);
                    }
                }
                case DOMAIN_WRITE, COMPLETE -> {
                    if (pending) {
                        anomalies.report(
                                Check.PAUSE_RAN,
                                op.occurrenceKey() + " ran or completed in " + op.proc()
                                        + " after its claim there was refused as paused",
                                List.of(refused.brief(), op.brief()));
                    }
                }
                default -> {}
            }
        }
        lastClaim.forEach((key, refused) -> unrecorded(is(refused, PAUSED), recorded.get(key), refused));
    }

    private void unrecorded(boolean pending, Boolean recorded, Op refused) {
        if (pending && !Boolean.TRUE.equals(recorded)) {
            anomalies.report(
                    Check.PAUSE_UNRECORDED,
                    refused.occurrenceKey() + " was refused as paused in " + refused.proc()
                            + " and not recorded SKIP PAUSED before its next claim there",
                    List.of(refused.brief()));
        }
    }

    /** Granted claims of the ids the item covers. */
    private List<Op> granted(String item) {
        List<String> ids = JepsenJobs.PAUSABLE.getOrDefault(item, List.of());
        return history.stream()
                .filter(o -> o.kind() == Op.Kind.CLAIM && is(o, "Claimed") && ids.contains(o.job()))
                .toList();
    }

    /** The first operation of a kind on the item invoked after {@code t0} that may have changed its mark. */
    private Optional<Op> next(String item, long t0, Op.Kind kind) {
        return history.stream()
                .filter(o -> o.kind() == kind && Objects.equals(o.group(), item) && o.t0() > t0)
                .filter(o -> is(o, kind == Op.Kind.RESUME ? RESUMED : SET) || is(o, Op.ERROR))
                .findFirst();
    }

    /** The first pause or resume of the item after {@code t0} that may have replaced or removed its mark. */
    private Optional<Op> replacedAfter(String item, long t0) {
        Optional<Op> pause = next(item, t0, Op.Kind.PAUSE);
        Optional<Op> resume = next(item, t0, Op.Kind.RESUME);
        if (pause.isEmpty()) {
            return resume;
        }
        if (resume.isEmpty()) {
            return pause;
        }
        return pause.get().t0() < resume.get().t0() ? pause : resume;
    }

    private static List<String> evidence(Op pause, Optional<Op> resume, Op claim) {
        return resume.map(r -> List.of(pause.brief(), claim.brief(), r.brief()))
                .orElseGet(() -> List.of(pause.brief(), claim.brief()));
    }

    private List<Op> of(Op.Kind kind) {
        return history.stream().filter(o -> o.kind() == kind).toList();
    }

    private static boolean is(Op op, String result) {
        return result.equals(op.result());
    }

    private static long count(List<Op> history, Op.Kind kind, String result) {
        return history.stream()
                .filter(o -> o.kind() == kind && result.equals(o.result()))
                .count();
    }
}
