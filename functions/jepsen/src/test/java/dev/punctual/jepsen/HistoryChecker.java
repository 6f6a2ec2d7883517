package dev.punctual.jepsen;

import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockSlots;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Checks a merged history (and, when given, the tables' final state) against the ledger's guarantees.
 * The five the suite exists for, then the supporting ones that make them mean something:
 *
 * <ul>
 *   <li>{@link Check#DOUBLE_SUCCESS}: at most one completion per occurrence reports a success;
 *   <li>{@link Check#LEASE_OVERLAP}: no two holders of a group's lease overlap in time (see {@link Tenure});
 *   <li>{@link Check#FENCE_ORDER}: per group, every fence is handed out once, and a lease acquired after
 *       another one returned (or held after it) has a higher fence (jobs' and entities' leases: a
 *       maintenance hold has none, decision 0037);
 *   <li>{@link Check#REFUSED_INPUT_WROTE}: a refused payload caused no write (and no request at all), and
 *       its occurrence has no record in the end;
 *   <li>{@link Check#FENCED_WRITE_LANDED}: in the order the domain table applied them, the fences of the
 *       landed writes never go down: no write lands once a higher fence has written.
 * </ul>
 *
 * <p>A long job's occurrence (decision 0039) is one tenure too, from its claim to its completion, its
 * lease's end moved by its extension to the execution's bound ({@code EXTEND}); its executions, chunk
 * records and chunk side effects go through {@link LongChecks}.
 *
 * <p>A lease is a group's or, for an entity's own lease (decision 0029, 5), its item
 * {@code job:entity}: its fences are chosen by the claimants from their clocks, so they must only grow.
 * Such a lease is kept apart from maintenance by the hold on its job's group, which cannot name it:
 * {@link Check#HOLD_ENTERED} and {@link Check#HOLD_OUTLIVED} check that instead of an overlap.
 *
 * <p>Times: every operation carries its invocation and return time on the reference clock (the
 * machine's, shared by all processes) and on the process's own skewed clock, which is the one its ledger
 * compares lease ends with.
 */
public final class HistoryChecker {

    /** What a lease holder may rely on: its invocation ends this long before the lease (Lease.deadline). */
    static final long MARGIN_MICROS = Lease.DEADLINE_MARGIN.toMillis() * 1000;

    public enum Check {
        DOUBLE_SUCCESS,
        LEASE_OVERLAP,
        /**
         * More job holders of a group of capacity N at once than N, over all its slots (decision 0051): each
         * slot is a lease of its own, which {@link #LEASE_OVERLAP} checks; this counts them together.
         */
        GROUP_OVER_CAPACITY,
        FENCE_ORDER,
        REFUSED_INPUT_WROTE,
        FENCED_WRITE_LANDED,
        /** A completion reported a committed record though it was sent at or after its lease's end. */
        LATE_COMMIT,
        /** A claim or maintenance was refused by a lease already past its end on the refused one's clock. */
        BLOCKED_BY_ENDED_LEASE,
        /** A reported success is not what the ledger holds in the end. */
        SUCCESS_LOST,
        /** The ledger holds a success its completer was told was not one. */
        SUCCESS_UNREPORTED,
        /** A bad payload ran, or a good one was refused, or refused for another reason than expected. */
        INPUT_MISJUDGED,
        /** A landed domain write whose fence is no lease this owner held, or the guard misjudged a fence. */
        DOMAIN_WRITER,
        /** The domain item counts landed writes the history does not account for. */
        DOMAIN_UNACCOUNTED,
        /**
         * An entity's own lease was taken while a maintenance hold was in force on its job's group: the
         * claim was sent after the hold was taken and returned before it ended (decision 0029, 5).
         */
        HOLD_ENTERED,
        /**
         * An entity run that started before a hold on its job's group still held its own lease when the
         * hold's report said the group was held (at once, or once the entity runs' term had passed).
         */
        HOLD_OUTLIVED,
        /** A success the ledger holds carries another fence than the lease its owner claimed it under. */
        SUCCESS_FENCE,
        /** An occurrence an operator's skip was planned for was claimed anyway ({@link SkipChecks}). */
        SKIP_IGNORED,
        /** A claim was refused by an operator's skip nobody had planned ({@link SkipChecks}). */
        SKIP_UNFOUNDED,
        /** An occurrence's last planned skip is not what the ledger holds in the end ({@link SkipChecks}). */
        SKIP_LOST,
        /**
         * A long occurrence's claim started two executions, or two of its executions belong to claims held at
         * once, or Step Functions holds one the history does not account for ({@link LongChecks}).
         */
        EXECUTION_TWICE,
        /** A chunk's success was recorded twice, or the ledger's chunk record is not the one recorded ({@link LongChecks}). */
        CHUNK_TWICE,
        /**
         * A chunk's side effect by a stale fence landed after a newer one's, or a chunk recorded as succeeded
         * has no side effect under its fence ({@link LongChecks}).
         */
        CHUNK_EFFECT_STALE,
        /** A long occurrence recorded SUCCEEDED without every planned chunk recorded as succeeded ({@link LongChecks}). */
        LONG_INCOMPLETE,
        /** A claim was granted for an id a pause held, or an occurrence inside a span kept refused ({@link PauseChecks}). */
        PAUSE_IGNORED,
        /** A claim was refused as paused though no pause of an item covering it was invoked ({@link PauseChecks}). */
        PAUSE_UNFOUNDED,
        /** A process ran or completed an occurrence after its claim there was refused as paused ({@link PauseChecks}). */
        PAUSE_RAN,
        /** A claim refused as paused was not recorded SKIP PAUSED by the process it refused ({@link PauseChecks}). */
        PAUSE_UNRECORDED
    }

    public record Anomaly(Check check, String message, List<String> evidence) {
        @Override
        public String toString() {
            return check + ": " + message
                    + evidence.stream().map(e -> "\n      " + e).collect(Collectors.joining());
        }
    }

    /** The anomalies found and the history's figures (counts of what happened). */
    public record Result(List<Anomaly> anomalies, Map<String, Long> figures) {
        public long count(Check check) {
            return anomalies.stream().filter(a -> a.check() == check).count();
        }
    }

    /**
     * One holding of a group's lease, on the reference clock (µs). It starts when the claim (or
     * maintenance) call returned, so after the acquiring write took effect. It ends at the first of:
     *
     * <ul>
     *   <li>the completion being sent, when that completion committed (a committed completion proves the
     *       lease was still ours when it took effect, whatever the clocks said);
     *   <li>for any other lease: the completion being sent, the process halting, maintenance being turned
     *       off or a command hold given back, and in every case the end its holder may rely on: the
     *       lease's end less {@link Lease#DEADLINE_MARGIN} on the holder's own clock. A Lambda is gone by
     *       then (the margin is added to its remaining time), and a job that runs on past it (the suite's
     *       overruns) no longer holds anything: fencing, not the lease, must stop its late writes. A
     *       command hold's end is the one its renewals set it to, earlier or later ({@link #holdTenures}).
     * </ul>
     *
     * So the check holds exactly when the margin covers the skew between any two processes' clocks.
     */
    record Tenure(String group, long fence, String token, boolean maintenance, Op acquired, long start, long end) {
        boolean empty() {
            return end <= start;
        }

        String brief() {
            return (maintenance ? "maintenance " : "lease ") + group + " fence " + fence + " of " + acquired.proc()
                    + " held [" + start + " .. " + end + "] µs; acquired by: " + acquired.brief();
        }
    }

    private final List<Op> history;
    private final FinalState state;
    private final List<Anomaly> anomalies = new ArrayList<>();
    private final Map<String, Long> figures = new LinkedHashMap<>();

    private HistoryChecker(List<Op> history, FinalState state) {
        this.history = history.stream()
                .sorted(Comparator.comparingLong(Op::t0).thenComparing(Op::proc))
                .toList();
        this.state = state;
    }

    public static Result check(List<Op> history, FinalState state) {
        HistoryChecker checker = new HistoryChecker(history, state);
        checker.run();
        return new Result(List.copyOf(checker.anomalies), Map.copyOf(checker.figures));
    }

    private void run() {
        List<Tenure> tenures = tenures();
        successes();
        leases(tenures);
        capacity(tenures);
        fences(tenures);
        holds(tenures);
        refusals();
        domain(tenures);
        blocked();
        SkipChecks.check(history, state, this::anomaly, figures);
        PauseChecks.check(history, this::anomaly, figures);
        LongChecks.check(history, state, tenures, this::anomaly, figures);
        figures(tenures);
    }

    private void anomaly(Check check, String message, List<String> evidence) {
        anomalies.add(new Anomaly(check, message, List.copyOf(evidence)));
    }

    private List<Op> ops(Op.Kind kind) {
        return history.stream().filter(o -> o.kind() == kind).toList();
    }

    private static boolean is(Op op, String result) {
        return result.equals(op.result());
    }

    /** A completion that committed our own final record (not a claim given back). */
    private static boolean committed(Op complete) {
        return is(complete, "Completed") && !"SKIPPED".equals(complete.outcome());
    }

    private static boolean reportedSuccess(Op complete) {
        return committed(complete) && "SUCCEEDED".equals(complete.status());
    }

    // ------------------------------------------------------------------ tenures

    private List<Tenure> tenures() {
        Map<String, Op> completion = new HashMap<>();
        Map<String, Op> killed = new HashMap<>();
        for (Op op : history) {
            if (op.kind() == Op.Kind.COMPLETE && op.token() != null) {
                completion.putIfAbsent(op.token(), op);
            }
            if (op.kind() == Op.Kind.KILL && op.token() != null) {
                killed.putIfAbsent(op.token(), op);
            }
        }
        Map<String, List<Op>> extensions = ops(Op.Kind.EXTEND).stream()
                .filter(o -> is(o, Op.OK) && o.leaseUntil() != null)
                .collect(Collectors.groupingBy(Op::token));
        List<Tenure> out = new ArrayList<>();
        for (Op claim : ops(Op.Kind.CLAIM)) {
            if (!is(claim, "Claimed")) {
                continue;
            }
            long end = reliedUntil(claim.leaseUntil(), claim.skewMs());
            // A long claim's lease extended to its execution's bound: acknowledged while the lease was still
            // relied on, it moves the end on (an unknown or refused one moves nothing: the holder does not
            // rely on it, and a shorter tenure only ever hides an overlap, never invents one).
            for (Op extension : extensions.getOrDefault(claim.token(), List.of()).stream()
                    .sorted(Comparator.comparingLong(Op::t1))
                    .toList()) {
                if (extension.t1() <= end) {
                    end = Math.max(end, reliedUntil(extension.leaseUntil(), extension.skewMs()));
                }
            }
            Op done = completion.get(claim.token());
            Op kill = killed.get(claim.token());
            if (done != null && committed(done)) {
                end = done.t0();
            } else if (done != null) {
                end = Math.min(end, done.t0());
            } else if (kill != null) {
                end = Math.min(end, kill.t0());
            }
            out.add(new Tenure(claim.group(), claim.fence(), claim.token(), false, claim, claim.t1(), end));
        }
        out.addAll(holdTenures());
        return out;
    }

    /**
     * The maintenance holds, one tenure per lease a {@code MAINT_ON} took (group, fence, token). It starts
     * when that {@code on} returned and ends at the first of: the holder lifting it (its process's next
     * {@code MAINT_OFF}, or a {@code MAINT_RELEASE} naming the lease), and the end its holder may rely on,
     * the lease's end less the margin (as for a job's lease). A lift ends the hold when it was sent,
     * whatever it answered, acknowledged or not: it may land at once, and a job may claim the group and
     * return before the lift's own answer comes back, so ending the hold at that answer would report an
     * overlap that never was. The end relied on is set by what the holder was told its lease now ends
     * at, while it was still in force:
     *
     * <ul>
     *   <li>a later {@code on} of the same operator that kept the hold (same fence, same token: the wait
     *       for entity runs keeps its start), to the end it asked for: such an {@code on} only ever
     *       lengthens a hold, so the end only moves on;
     *   <li>an acknowledged renewal of a command hold ({@code MAINT_RENEW} OK, with the renewed lease's
     *       end), to that end, earlier or later than the end before it: {@code RunLedger.renewHold} sets
     *       the end (HeldMaintenance's take lasts through its wait, and its first renewal shortens it to
     *       one lapse), and the answer is the end the ledger stored. Kept at the longer end, a shortened
     *       hold would make a job claiming the group legally after the shortened end an overlap that
     *       never was. A refused one (the group lifted, forced over or lapsed) sets nothing and cuts
     *       nothing: if the group was lost before the end already relied on, the job that got it is the
     *       overlap this check exists for;
     *   <li>an unknown renewal ({@code ERROR}) may or may not have landed, and landed, it set the end to
     *       what it asked for. The checker assumes whichever of the two ends is earlier: it cuts the end
     *       to the one asked for when that is earlier (it may have shortened the hold), and leaves it
     *       when that is later (it may not have lengthened it). Assuming the earlier end is what keeps the
     *       check sound: the tenure is then no longer than the hold was whichever way the renewal went,
     *       so a job's lease reported as overlapping it overlapped the hold in either case. Assuming the
     *       later end would report as an overlap a legal claim in the time the renewal cut off, or never
     *       added. An unknown renewal that did lengthen the hold can only hide an overlap in the time it
     *       added, never invent one; the holder does not rely on it either (it renews again from the
     *       lease it was last given).
     * </ul>
     *
     * An {@code on} or an acknowledged renewal sets the end only when its answer came back before the
     * tenure's end so far: one that came later re-established a hold that had lapsed by the holder's own
     * reckoning, and in between a claim whose clock was ahead may have been granted legally (an entity's
     * own lease, which the hold cannot name, keeps running under the renewed hold). Such a late renewal
     * is then taken as an unknown one is: it may have landed any time after it was sent, before the end,
     * so when it asked for an earlier end it cuts the tenure to it, and otherwise moves nothing. A cut
     * counts whenever it came: it only ever makes the tenure shorter. Every rule above errs the same way:
     * a tenure is never longer than the ledger guarantees it, so an overlap reported is one the ledger
     * allowed.
     */
    private List<Tenure> holdTenures() {
        Map<String, List<Op>> offs = ops(Op.Kind.MAINT_OFF).stream().collect(Collectors.groupingBy(Op::proc));
        Map<String, List<Op>> releases = new HashMap<>();
        for (Op release : ops(Op.Kind.MAINT_RELEASE)) {
            for (Op.Held held : release.taken() == null ? List.<Op.Held>of() : release.taken()) {
                releases.computeIfAbsent(held.group() + "|" + held.token(), k -> new ArrayList<>())
                        .add(release);
            }
        }
        // What sets a hold's end: the `on`s that took or kept it, the acknowledged renewals, and the unknown
        // ones (which may only cut it). `at`: when the answer came back (unknown: when the call gave up).
        record Extension(Op op, long at, long reliedUntil) {
            boolean unknown() {
                return op.kind() == Op.Kind.MAINT_RENEW && is(op, Op.ERROR);
            }
        }
        record Taken(Op on, Op.Held held) {}
        Map<String, Taken> takenBy = new LinkedHashMap<>();
        Map<String, List<Extension>> extensions = new HashMap<>();
        for (Op on : ops(Op.Kind.MAINT_ON)) {
            for (Op.Held held : on.taken() == null ? List.<Op.Held>of() : on.taken()) {
                String key = held.group() + "|" + held.fence() + "|" + held.token();
                takenBy.putIfAbsent(key, new Taken(on, held));
                extensions
                        .computeIfAbsent(key, k -> new ArrayList<>())
                        .add(new Extension(on, on.t1(), reliedUntil(held.until(), on.skewMs())));
            }
        }
        for (Op renew : ops(Op.Kind.MAINT_RENEW)) {
            long reliedUntil;
            if (acknowledged(renew)) {
                reliedUntil = reliedUntil(renew.leaseUntil(), renew.skewMs());
            } else if (is(renew, Op.ERROR) && renew.until() != null) {
                reliedUntil = reliedUntil(renew.until(), renew.skewMs()); // what it asked for
            } else {
                continue; // refused: sets nothing, cuts nothing
            }
            extensions
                    .computeIfAbsent(renew.group() + "|" + renew.fence() + "|" + renew.token(), k -> new ArrayList<>())
                    .add(new Extension(renew, renew.t1(), reliedUntil));
        }
        List<Tenure> out = new ArrayList<>();
        long extending = 0;
        long shortening = 0;
        long cutting = 0;
        for (Map.Entry<String, Taken> taken : takenBy.entrySet()) {
            Op on = taken.getValue().on();
            Op.Held held = taken.getValue().held();
            long start = on.t1();
            long lifted = Stream.concat(
                            offs.getOrDefault(on.proc(), List.of()).stream(),
                            releases.getOrDefault(held.group() + "|" + held.token(), List.of()).stream())
                    .filter(o -> o.t0() >= start)
                    .mapToLong(Op::t0)
                    .min()
                    .orElse(Long.MAX_VALUE);
            long end = Long.MIN_VALUE;
            List<Extension> inOrder = extensions.get(taken.getKey()).stream()
                    .filter(e -> e.at() >= start)
                    .sorted(Comparator.comparingLong(Extension::at))
                    .toList();
            for (Extension e : inOrder) {
                boolean late = e.op() != on && e.at() > Math.min(lifted, end);
                if (e.unknown() || (late && e.op().kind() == Op.Kind.MAINT_RENEW)) {
                    // Unknown, or answered after the hold had ended: it may have shortened the hold (before
                    // the end): assume it did. It re-established nothing we may rely on: assume it did not
                    // lengthen it. Either way the tenure is no longer than the hold was (see above).
                    if (e.reliedUntil() < end) {
                        cutting++;
                        end = e.reliedUntil();
                    }
                    continue;
                }
                if (late) {
                    continue; // an `on` answered after the hold had ended: it re-established nothing
                }
                if (e.op().kind() == Op.Kind.MAINT_RENEW) {
                    // A renewal sets the end, earlier or later (renewHold): its answer is the end stored.
                    if (e.reliedUntil() > end) {
                        extending++; // it moved the end its holder may count on later
                    } else if (e.reliedUntil() < end) {
                        shortening++; // it moved it earlier: the take's wait given back
                    }
                    end = e.reliedUntil();
                } else {
                    end = Math.max(end, e.reliedUntil()); // an `on` only ever lengthens a hold
                }
            }
            out.add(new Tenure(held.group(), held.fence(), held.token(), true, on, start, Math.min(lifted, end)));
        }
        figures.put("maintenance.renewalsExtending", extending);
        figures.put("maintenance.renewalsShortening", shortening);
        figures.put("maintenance.renewalsCutting", cutting);
        return out;
    }

    /** A renewal the ledger acknowledged: it answered with the renewed lease. */
    static boolean acknowledged(Op renew) {
        return is(renew, Op.OK) && renew.leaseUntil() != null;
    }

    /** The lease end less the margin, on the holder's clock, as a reference time in µs. */
    static long reliedUntil(long leaseUntilMs, long skewMs) {
        return (leaseUntilMs - skewMs) * 1000 - MARGIN_MICROS;
    }

    // ------------------------------------------------------------------ successes

    private void successes() {
        Map<String, List<Op>> byOccurrence = new TreeMap<>();
        for (Op op : ops(Op.Kind.COMPLETE)) {
            if (reportedSuccess(op)) {
                byOccurrence
                        .computeIfAbsent(op.occurrenceKey(), k -> new ArrayList<>())
                        .add(op);
            }
        }
        byOccurrence.forEach((occurrence, done) -> {
            if (done.size() > 1) {
                anomaly(
                        Check.DOUBLE_SUCCESS,
                        occurrence + " was reported successful " + done.size() + " times",
                        done.stream().map(Op::brief).toList());
            }
        });
        for (Op op : ops(Op.Kind.COMPLETE)) {
            if (committed(op) && op.c0() >= op.leaseUntil()) {
                anomaly(
                        Check.LATE_COMMIT,
                        op.occurrenceKey() + ": committed though sent at " + op.c0()
                                + " ms, not before its lease's end " + op.leaseUntil() + " ms (its own clock)",
                        List.of(op.brief()));
            }
        }
        if (!state.read()) {
            return;
        }
        byOccurrence.forEach((occurrence, done) -> {
            FinalState.StoredRun stored = state.runs().get(occurrence);
            Set<String> tokens = done.stream().map(Op::token).collect(Collectors.toSet());
            if (stored == null || !"SUCCEEDED".equals(stored.status()) || !tokens.contains(stored.owner())) {
                anomaly(
                        Check.SUCCESS_LOST,
                        occurrence + " was reported successful, and the ledger holds " + stored,
                        done.stream().map(Op::brief).toList());
            }
        });
        Map<String, Op> completionByToken = new HashMap<>();
        Map<String, Op> claimByToken = new HashMap<>();
        for (Op op : history) {
            if (op.kind() == Op.Kind.COMPLETE && op.token() != null) {
                completionByToken.put(op.token(), op);
            }
            if (op.kind() == Op.Kind.CLAIM && is(op, "Claimed")) {
                claimByToken.put(op.token(), op);
            }
        }
        Set<String> claimedTokens = claimByToken.keySet();
        state.runs().forEach((occurrence, stored) -> {
            if (!"SUCCEEDED".equals(stored.status())) {
                return;
            }
            Op claim = claimByToken.get(stored.owner());
            if (claim != null && !Objects.equals(claim.fence(), stored.fence())) {
                anomaly(
                        Check.SUCCESS_FENCE,
                        occurrence + " is stored SUCCEEDED with fence " + stored.fence() + ", and its owner "
                                + stored.owner() + " claimed it under fence " + claim.fence(),
                        List.of(claim.brief()));
            }
            Op done = completionByToken.get(stored.owner());
            boolean unknown = done != null && is(done, Op.ERROR);
            boolean reported = done != null && reportedSuccess(done);
            if (!claimedTokens.contains(stored.owner()) || !(unknown || reported)) {
                anomaly(
                        Check.SUCCESS_UNREPORTED,
                        occurrence + " is stored SUCCEEDED by " + stored.owner() + " (fence " + stored.fence()
                                + "), whose completion said " + (done == null ? "nothing" : done.result()),
                        done == null ? List.of() : List.of(done.brief()));
            }
        });
    }

    // ------------------------------------------------------------------ leases and fences

    private void leases(List<Tenure> tenures) {
        Map<String, List<Tenure>> byGroup = tenures.stream().collect(Collectors.groupingBy(Tenure::group));
        byGroup.forEach((group, held) -> {
            List<Tenure> byStart = held.stream()
                    .filter(t -> !t.empty())
                    .sorted(Comparator.comparingLong(Tenure::start))
                    .toList();
            Tenure latestAny = null;
            Tenure latestJob = null;
            for (Tenure next : byStart) {
                // Maintenance holds may overlap one another (turning it on again extends it); never a job's.
                Tenure previous = next.maintenance() ? latestJob : latestAny;
                if (previous != null && previous.end() > next.start()) {
                    anomaly(
                            Check.LEASE_OVERLAP,
                            group + ": fence " + previous.fence() + " held until " + previous.end()
                                    + " µs, fence " + next.fence() + " from " + next.start() + " µs ("
                                    + (previous.end() - next.start()) / 1000 + " ms together)",
                            List.of(previous.brief(), next.brief()));
                }
                if (latestAny == null || next.end() > latestAny.end()) {
                    latestAny = next;
                }
                if (!next.maintenance() && (latestJob == null || next.end() > latestJob.end())) {
                    latestJob = next;
                }
            }
            // Fence order among the jobs' tenures: a hold has no fence (decision 0037).
            List<Tenure> fenced = byStart.stream().filter(t -> !t.maintenance()).toList();
            for (int i = 1; i < fenced.size(); i++) {
                Tenure previous = fenced.get(i - 1);
                Tenure next = fenced.get(i);
                if (next.fence() <= previous.fence()) {
                    anomaly(
                            Check.FENCE_ORDER,
                            group + ": fence " + next.fence() + " held after fence " + previous.fence(),
                            List.of(previous.brief(), next.brief()));
                }
            }
        });
    }

    /**
     * A group of capacity N (decision 0051, {@link JepsenJobs#capacityOf}) has N slots, each a lease checked
     * above; together they never have more than N job holders (bodies) at once. Maintenance holds are not
     * bodies. Reports each moment a tenure starts with more than N held, and counts the most held at once.
     */
    private void capacity(List<Tenure> tenures) {
        Map<String, List<Tenure>> byGroup = tenures.stream()
                .filter(t -> !t.maintenance() && !t.empty())
                .collect(Collectors.groupingBy(t -> LockSlots.groupOf(t.group())));
        byGroup.forEach((group, held) -> {
            int capacity = JepsenJobs.capacityOf(group);
            if (capacity == 1) {
                return;
            }
            List<Tenure> byStart = held.stream()
                    .sorted(Comparator.comparingLong(Tenure::start))
                    .toList();
            long most = 0;
            for (Tenure next : byStart) {
                List<Tenure> together = byStart.stream()
                        .filter(t -> t.start() <= next.start() && t.end() > next.start())
                        .toList();
                most = Math.max(most, together.size());
                if (together.size() > capacity) {
                    anomaly(
                            Check.GROUP_OVER_CAPACITY,
                            group + ": " + together.size() + " holders at " + next.start() + " µs, capacity "
                                    + capacity,
                            together.stream().map(Tenure::brief).toList());
                }
            }
            figures.merge("group." + group + ".mostAtOnce", most, Math::max);
        });
    }

    /**
     * An entity's own lease is its item {@code job:entity}; a job id never holds {@code :}, so the part
     * before it is the job's group, whose maintenance hold the entity's claims check (decision 0029, 5).
     * Empty for every other lease.
     */
    static Optional<String> holdGroupOf(String lease) {
        int colon = lease.indexOf(':');
        return colon < 0 ? Optional.empty() : Optional.of(lease.substring(0, colon));
    }

    /**
     * Entities' own leases against the holds on their job's group, which cannot name them: no entity
     * lease is taken by a claim that ran wholly inside a hold ({@link Check#HOLD_ENTERED}), and an
     * entity run that held its lease when a hold was taken has ended by the time that hold's report says
     * the group is held: at once when the report names it taken and not still running, otherwise the
     * end the report gives for the entity runs started before the hold ({@link Check#HOLD_OUTLIVED}).
     */
    private void holds(List<Tenure> tenures) {
        Map<String, List<Tenure>> holdsByGroup =
                tenures.stream().filter(Tenure::maintenance).collect(Collectors.groupingBy(Tenure::group));
        long leases = 0;
        long overlapping = 0;
        Set<String> entityGroups = new java.util.TreeSet<>();
        for (Tenure entity : tenures) {
            if (entity.maintenance()) {
                continue;
            }
            Optional<String> holdGroup = holdGroupOf(entity.group());
            if (holdGroup.isEmpty()) {
                continue;
            }
            leases++;
            entityGroups.add(holdGroup.get());
            for (Tenure hold : holdsByGroup.getOrDefault(holdGroup.get(), List.of())) {
                if (hold.empty()) {
                    continue;
                }
                Op claim = entity.acquired();
                if (claim.t0() >= hold.start() && claim.t1() <= hold.end()) {
                    anomaly(
                            Check.HOLD_ENTERED,
                            entity.group() + ": lease fence " + entity.fence() + " taken by a claim sent at "
                                    + claim.t0() + " µs and returned at " + claim.t1() + " µs, inside the hold on "
                                    + hold.group() + " [" + hold.start() + " .. " + hold.end() + "] µs",
                            List.of(hold.brief(), entity.brief()));
                    continue;
                }
                boolean overlaps = !entity.empty() && entity.start() < hold.end() && entity.end() > hold.start();
                overlapping += overlaps ? 1 : 0;
                long heldFrom = heldFrom(hold);
                if (overlaps && entity.end() > heldFrom) {
                    anomaly(
                            Check.HOLD_OUTLIVED,
                            entity.group() + ": lease fence " + entity.fence() + " held until " + entity.end()
                                    + " µs, past " + heldFrom + " µs, when the hold on " + hold.group()
                                    + " was reported held (" + (entity.end() - heldFrom) / 1000 + " ms)",
                            List.of(hold.brief(), entity.brief()));
                }
            }
        }
        figures.put("entity.leasesGranted", leases);
        figures.put("entity.runsOverlappingHolds", overlapping);
        figures.put(
                "entity.claimsUnderMaintenance",
                ops(Op.Kind.CLAIM).stream()
                        .filter(o -> o.group() != null && holdGroupOf(o.group()).isPresent())
                        .filter(o -> is(o, "UnderMaintenance"))
                        .count());
        List<Tenure> entityHolds = tenures.stream()
                .filter(t -> t.maintenance() && entityGroups.contains(t.group()))
                .toList();
        figures.put(
                "entity.holdsReportedHeld",
                entityHolds.stream().filter(h -> heldFrom(h) == h.start()).count());
        figures.put(
                "entity.holdsStillDraining",
                entityHolds.stream().filter(h -> heldFrom(h) != h.start()).count());
    }

    /**
     * When a hold's report says its group is held, on the reference clock (µs): when the call returned,
     * unless the report names the group still running (the entity runs started before the hold), then
     * the end it gives for them, on the operator's clock.
     */
    private static long heldFrom(Tenure hold) {
        List<Op.Held> running =
                hold.acquired().blocked() == null ? List.of() : hold.acquired().blocked();
        return running.stream()
                .filter(b -> b.group().equals(hold.group()))
                .mapToLong(b -> (b.until() - hold.acquired().skewMs()) * 1000)
                .max()
                .orElse(hold.start());
    }

    private void fences(List<Tenure> tenures) {
        // A maintenance hold has no fence and leaves the stored one as it is (decision 0037).
        Map<String, List<Tenure>> byGroup =
                tenures.stream().filter(t -> !t.maintenance()).collect(Collectors.groupingBy(Tenure::group));
        byGroup.forEach((group, held) -> {
            Map<Long, List<Tenure>> byFence = held.stream().collect(Collectors.groupingBy(Tenure::fence));
            byFence.forEach((fence, same) -> {
                if (same.stream().map(Tenure::token).distinct().count() > 1) {
                    anomaly(
                            Check.FENCE_ORDER,
                            group + ": fence " + fence + " handed out " + same.size() + " times",
                            same.stream().map(Tenure::brief).toList());
                }
            });
            // Real-time order: a lease acquired after another acquisition had returned has a higher fence.
            List<Tenure> byReturn = held.stream()
                    .sorted(Comparator.comparingLong(t -> t.acquired().t1()))
                    .toList();
            List<Tenure> byInvoke = held.stream()
                    .sorted(Comparator.comparingLong(t -> t.acquired().t0()))
                    .toList();
            int i = 0;
            Tenure highest = null;
            for (Tenure next : byInvoke) {
                while (i < byReturn.size()
                        && byReturn.get(i).acquired().t1() < next.acquired().t0()) {
                    Tenure done = byReturn.get(i++);
                    if (highest == null || done.fence() > highest.fence()) {
                        highest = done;
                    }
                }
                if (highest != null && highest.fence() >= next.fence()) {
                    anomaly(
                            Check.FENCE_ORDER,
                            group + ": fence " + next.fence() + " acquired after fence " + highest.fence()
                                    + " had been",
                            List.of(highest.brief(), next.brief()));
                }
            }
            if (state.read()) {
                long stored = state.lockFences().getOrDefault(group, 0L);
                long max = held.stream().mapToLong(Tenure::fence).max().orElse(0);
                if (stored < max) {
                    anomaly(
                            Check.FENCE_ORDER,
                            group + ": the lock item's fence is " + stored + ", below fence " + max + " handed out",
                            List.of());
                }
            }
        });
    }

    // ------------------------------------------------------------------ refused inputs

    private void refusals() {
        for (Op op : ops(Op.Kind.PAYLOAD)) {
            if (is(op, Op.ERROR)) {
                if (op.expect() != null) {
                    anomaly(
                            Check.INPUT_MISJUDGED,
                            "a payload to be refused with " + op.expect() + " threw",
                            List.of(op.brief(), String.valueOf(op.detail())));
                }
                continue;
            }
            if (op.expect() == null) {
                if (op.code() != null) {
                    anomaly(
                            Check.INPUT_MISJUDGED,
                            "a scheduler's delivery was refused with " + op.code(),
                            List.of(op.brief()));
                }
                continue;
            }
            if (op.code() == null) {
                anomaly(Check.INPUT_MISJUDGED, "a bad payload was run: " + op.input(), List.of(op.brief()));
            } else if (!op.expect().equals(op.code())) {
                anomaly(
                        Check.INPUT_MISJUDGED,
                        "refused with " + op.code() + ", expected " + op.expect() + ": " + op.input(),
                        List.of(op.brief()));
            }
            if (op.code() != null && (op.writes() != 0 || op.requests() != 0)) {
                anomaly(
                        Check.REFUSED_INPUT_WROTE,
                        "refused with " + op.code() + " after " + op.writes() + " writes and " + op.requests()
                                + " requests: " + op.input(),
                        List.of(op.brief()));
            }
            if (state.read() && op.job() != null && op.occ() != null) {
                FinalState.StoredRun stored = state.runs().get(op.occurrenceKey());
                if (stored != null) {
                    anomaly(
                            Check.REFUSED_INPUT_WROTE,
                            "refused " + op.occurrenceKey() + " has a record in the ledger: " + stored,
                            List.of(op.brief()));
                }
            }
        }
    }

    // ------------------------------------------------------------------ the domain table

    private void domain(List<Tenure> tenures) {
        Map<String, Tenure> leaseByToken = new HashMap<>();
        tenures.stream().filter(t -> !t.maintenance()).forEach(t -> leaseByToken.put(t.token(), t));
        Map<String, List<Op>> byGroup = ops(Op.Kind.DOMAIN_WRITE).stream()
                .collect(Collectors.groupingBy(Op::group, TreeMap::new, Collectors.toList()));
        byGroup.forEach((group, writes) -> {
            List<Op> landed = writes.stream()
                    .filter(w -> is(w, Op.APPLIED))
                    .sorted(Comparator.comparingLong(Op::seq))
                    .toList();
            Op highest = null;
            for (int i = 0; i < landed.size(); i++) {
                Op w = landed.get(i);
                if (i > 0 && Objects.equals(landed.get(i - 1).seq(), w.seq())) {
                    anomaly(
                            Check.DOMAIN_UNACCOUNTED,
                            group + ": two writes landed as write " + w.seq(),
                            List.of(landed.get(i - 1).brief(), w.brief()));
                }
                if (highest != null && w.fence() < highest.fence()) {
                    anomaly(
                            Check.FENCED_WRITE_LANDED,
                            group + ": write " + w.seq() + " with fence " + w.fence() + " landed after write "
                                    + highest.seq() + " with fence " + highest.fence(),
                            List.of(highest.brief(), w.brief()));
                }
                if (highest == null || w.fence() > highest.fence()) {
                    highest = w;
                }
                Tenure lease = leaseByToken.get(w.token());
                if (lease == null
                        || lease.fence() != w.fence()
                        || !lease.group().equals(group)) {
                    anomaly(
                            Check.DOMAIN_WRITER,
                            group + ": a write landed with fence " + w.fence() + " that its writer did not hold",
                            List.of(w.brief()));
                }
            }
            for (Op w : writes) {
                if (is(w, Op.REFUSED) && w.seenFence() <= w.fence()) {
                    anomaly(
                            Check.DOMAIN_WRITER,
                            group + ": the fence guard refused fence " + w.fence() + " over stored fence "
                                    + w.seenFence(),
                            List.of(w.brief()));
                }
            }
            if (state.read()) {
                FinalState.DomainItem item = state.domain().get(group);
                long unknown = writes.stream().filter(w -> is(w, Op.ERROR)).count();
                long stored = item == null ? 0 : item.seq();
                if (stored < landed.size() || stored > landed.size() + unknown) {
                    anomaly(
                            Check.DOMAIN_UNACCOUNTED,
                            group + ": the domain item counts " + stored + " landed writes, the history "
                                    + landed.size() + " (and " + unknown + " unknown)",
                            List.of());
                }
            }
        });
    }

    // ------------------------------------------------------------------ blocked claims

    private void blocked() {
        for (Op op : ops(Op.Kind.CLAIM)) {
            boolean blocking = is(op, "Busy") || is(op, "InProgressElsewhere") || is(op, "UnderMaintenance");
            if (blocking && op.until() != null && op.until() <= op.c0()) {
                anomaly(
                        Check.BLOCKED_BY_ENDED_LEASE,
                        op.occurrenceKey() + ": " + op.result() + " by a lease that ended at " + op.until()
                                + " ms, before the claim was sent at " + op.c0() + " ms (its clock)",
                        List.of(op.brief()));
            }
        }
        for (Op op : ops(Op.Kind.MAINT_ON)) {
            for (Op.Held busy : op.blocked() == null ? List.<Op.Held>of() : op.blocked()) {
                if (busy.until() <= op.c0()) {
                    anomaly(
                            Check.BLOCKED_BY_ENDED_LEASE,
                            "maintenance kept out of " + busy.group() + " by a lease that ended at " + busy.until()
                                    + " ms",
                            List.of(op.brief()));
                }
            }
        }
    }

    // ------------------------------------------------------------------ figures

    private void figures(List<Tenure> tenures) {
        figures.put("processes", history.stream().map(Op::proc).distinct().count());
        figures.put(
                "operations",
                history.stream()
                        .filter(o -> o.kind() != Op.Kind.START && o.kind() != Op.Kind.END)
                        .count());
        for (Op.Kind kind : Op.Kind.values()) {
            figures.put("op." + kind, (long) ops(kind).size());
        }
        figures.put(
                "claims.granted", tenures.stream().filter(t -> !t.maintenance()).count());
        figures.put(
                "claims.retries",
                ops(Op.Kind.CLAIM).stream()
                        .filter(o -> is(o, "Claimed") && o.attempt() != null && o.attempt() > 1)
                        .count());
        figures.put(
                "maintenance.holds",
                tenures.stream().filter(Tenure::maintenance).count());
        List<Op> commandHolds = ops(Op.Kind.MAINT_ON).stream()
                .filter(o -> is(o, Op.OK) && o.detail() != null && o.detail().startsWith(RecordingLedger.COMMAND))
                .filter(o -> !o.taken().isEmpty())
                .toList();
        Set<String> givenBack = ops(Op.Kind.MAINT_RELEASE).stream()
                .flatMap(o -> o.taken() == null ? Stream.<Op.Held>empty() : o.taken().stream())
                .map(Op.Held::token)
                .collect(Collectors.toSet());
        figures.put("maintenance.commandHolds", (long) commandHolds.size());
        // A command that "crashed": none of the leases its hold took was ever given back.
        figures.put(
                "maintenance.commandHoldsAbandoned",
                commandHolds.stream()
                        .filter(o -> o.taken().stream().noneMatch(h -> givenBack.contains(h.token())))
                        .count());
        figures.put(
                "maintenance.renewalsAcknowledged",
                ops(Op.Kind.MAINT_RENEW).stream()
                        .filter(HistoryChecker::acknowledged)
                        .count());
        figures.put(
                "maintenance.renewalsRefused",
                ops(Op.Kind.MAINT_RENEW).stream().filter(o -> is(o, Op.REFUSED)).count());
        figures.put(
                "maintenance.renewalsUnknown",
                ops(Op.Kind.MAINT_RENEW).stream().filter(o -> is(o, Op.ERROR)).count());
        figures.put(
                "successes",
                ops(Op.Kind.COMPLETE).stream()
                        .filter(HistoryChecker::reportedSuccess)
                        .count());
        figures.put(
                "occurrences.claimed",
                ops(Op.Kind.CLAIM).stream()
                        .filter(o -> is(o, "Claimed"))
                        .map(Op::occurrenceKey)
                        .distinct()
                        .count());
        figures.put(
                "occurrences.succeeded",
                ops(Op.Kind.COMPLETE).stream()
                        .filter(HistoryChecker::reportedSuccess)
                        .map(Op::occurrenceKey)
                        .distinct()
                        .count());
        figures.put(
                "completions.fenced",
                ops(Op.Kind.COMPLETE).stream().filter(o -> is(o, "Fenced")).count());
        figures.put(
                "completions.unknown",
                ops(Op.Kind.COMPLETE).stream().filter(o -> is(o, Op.ERROR)).count());
        figures.put(
                "claims.unknown",
                ops(Op.Kind.CLAIM).stream().filter(o -> is(o, Op.ERROR)).count());
        Map<String, Tenure> byToken = new HashMap<>();
        tenures.forEach(t -> byToken.put(t.token(), t));
        long lateLanded = 0;
        long lateRefused = 0;
        for (Op w : ops(Op.Kind.DOMAIN_WRITE)) {
            Tenure t = byToken.get(w.token());
            if (t != null && w.t0() > t.end()) {
                lateLanded += is(w, Op.APPLIED) ? 1 : 0;
                lateRefused += is(w, Op.REFUSED) ? 1 : 0;
            }
        }
        figures.put(
                "domain.landed",
                ops(Op.Kind.DOMAIN_WRITE).stream()
                        .filter(o -> is(o, Op.APPLIED))
                        .count());
        figures.put(
                "domain.refused",
                ops(Op.Kind.DOMAIN_WRITE).stream()
                        .filter(o -> is(o, Op.REFUSED))
                        .count());
        figures.put("domain.lateWritesLanded", lateLanded);
        figures.put("domain.lateWritesRefused", lateRefused);
        figures.put(
                "payloads.refused",
                ops(Op.Kind.PAYLOAD).stream().filter(o -> o.expect() != null).count());
        Map<String, Long> faults = new TreeMap<>();
        for (Op op : history) {
            if ((op.kind() == Op.Kind.END || op.kind() == Op.Kind.KILL) && op.counters() != null) {
                op.counters().forEach((k, v) -> faults.merge(k, v, Long::sum));
            }
        }
        faults.forEach((k, v) -> figures.put(k.equals("requests") || k.equals("writes") ? k : "faults." + k, v));
        figures.put(
                "faults.injected",
                faults.entrySet().stream()
                        .filter(e ->
                                !e.getKey().equals("requests") && !e.getKey().equals("writes"))
                        .mapToLong(Map.Entry::getValue)
                        .sum());
        figures.put("anomalies", (long) anomalies.size());
    }
}
