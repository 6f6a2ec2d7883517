package dev.punctual.jepsen;

import dev.punctual.ledger.Busy;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.EntityDeleted;
import dev.punctual.ledger.EntityTombstone;
import dev.punctual.ledger.Lease;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.MaintenanceHold;
import dev.punctual.ledger.MaintenanceReport;
import dev.punctual.ledger.MaintenanceRequest;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.PauseMark;
import dev.punctual.ledger.PauseOutcome;
import dev.punctual.ledger.ResumeChoice;
import dev.punctual.ledger.ResumeOutcome;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.ledger.SkipPlan;
import dev.punctual.ledger.SkipReason;
import dev.punctual.ledger.SkipResult;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.UnderMaintenance;
import dev.punctual.ledger.Unskip;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The ledger of one process, recording every call that can change the ledger with its invocation and
 * return times on both clocks. The runtime and the worker's own loop both go through it, so the history
 * holds every claim, completion, skip, operator's skip and maintenance call the process made, a command
 * hold's renewals and release included, and a long occurrence's extension, note and chunk records
 * ({@link #longRuns()}). Single-threaded, as a Lambda invocation is, but for a long occurrence's chunks,
 * which the local driver runs on threads of their own (they only record, through the synchronized log).
 */
final class RecordingLedger implements RunLedger {

    private final RunLedger ledger;
    private final HistoryLog history;
    private final String proc;
    private final long skewMs;
    private final Clock clock;
    /** Concurrent: a long occurrence's chunks run on the driver's threads (they read, never change it). */
    private final Map<String, Claim> inFlight = new java.util.concurrent.ConcurrentHashMap<>();

    private final LongKills kills;
    private final RecordingLongRuns longRuns;
    /** The owner tokens of the maintenance leases this process took: the only leases it may renew. */
    private final Set<String> maintenanceTokens = new HashSet<>();

    private String via = "direct";

    /** How a MAINT_ON's {@code detail} names the command a hold is taken for. */
    static final String COMMAND = "command: ";

    /**
     * Where the worker may halt its process in a long occurrence (decision 0039): before a long claim's
     * lease is extended (after the claim, before its execution's start), and before a chunk's attempt is
     * recorded (after the chunk's side effect). The worker decides, records the KILL and halts.
     */
    interface LongKills {
        void beforeExtend(Claim claim);

        void beforeChunkRecord(Lease lease, RunKey key, String chunk, dev.punctual.ledger.ChunkOutcome outcome);

        LongKills NONE = new LongKills() {
            @Override
            public void beforeExtend(Claim claim) {}

            @Override
            public void beforeChunkRecord(
                    Lease lease, RunKey key, String chunk, dev.punctual.ledger.ChunkOutcome outcome) {}
        };
    }

    RecordingLedger(RunLedger ledger, HistoryLog history, String proc, long skewMs, Clock clock) {
        this(ledger, history, proc, skewMs, clock, LongKills.NONE);
    }

    RecordingLedger(RunLedger ledger, HistoryLog history, String proc, long skewMs, Clock clock, LongKills kills) {
        this.ledger = ledger;
        this.history = history;
        this.proc = proc;
        this.skewMs = skewMs;
        this.clock = clock;
        this.kills = kills;
        this.longRuns = new RecordingLongRuns(this, kills);
    }

    /** The long runs' records, every write recorded (EXEC_NOTE, CHUNK) with the kill point before a chunk's. */
    @Override
    public dev.punctual.ledger.LongRunLedger longRuns() {
        return longRuns;
    }

    /** The ledger's own, for {@link RecordingLongRuns}. */
    dev.punctual.ledger.LongRunLedger inner() {
        return ledger.longRuns();
    }

    void via(String path) {
        this.via = path;
    }

    /** The claim this process holds for an occurrence (the runtime's jobs need its owner token). */
    Optional<Claim> inFlight(String jobId, Instant occurrence) {
        return Optional.ofNullable(inFlight.get(jobId + "@" + occurrence.toEpochMilli()));
    }

    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }

    /**
     * Runs the call and records it; an exception is recorded as ERROR (outcome unknown) and rethrown.
     * Exactly one of {@code describe} and {@code onError} is used, once.
     */
    <T> T recorded(Supplier<T> call, Function<T, Op.Builder> describe, Op.Builder onError) {
        return recorded(nowMicros(), clock.millis(), call, describe, onError);
    }

    /** As {@link #recorded(Supplier, Function, Op.Builder)}, the call invoked at {@code t0} / {@code c0}. */
    <T> T recorded(long t0, long c0, Supplier<T> call, Function<T, Op.Builder> describe, Op.Builder onError) {
        try {
            T value = call.get();
            history.write(describe.apply(value)
                    .via(via)
                    .times(t0, nowMicros(), c0, clock.millis())
                    .build());
            return value;
        } catch (RuntimeException e) {
            history.write(onError.via(via)
                    .times(t0, nowMicros(), c0, clock.millis())
                    .result(Op.ERROR)
                    .detail(e.getClass().getSimpleName() + ": " + e.getMessage())
                    .build());
            throw e;
        }
    }

    long clockMillis() {
        return clock.millis();
    }

    /** Appends a line that is no call's answer (an intent, written before its call). */
    void write(Op.Builder op) {
        history.write(op.via(via).build());
    }

    Op.Builder op(Op.Kind kind) {
        return Op.of(proc, skewMs, kind);
    }

    private Op.Builder claimOp(ClaimRequest request) {
        return op(Op.Kind.CLAIM)
                .occurrence(request.key().jobId(), request.key().scheduledTime().toEpochMilli(), request.lockGroup())
                .attempt(request.schedulerAttempt())
                .detail(request.trigger().name() + (request.force() ? " forced" : ""));
    }

    private Op.Builder describeClaim(ClaimRequest request, ClaimResult result) {
        Op.Builder b = claimOp(request).result(result.getClass().getSimpleName());
        switch (result) {
            case ClaimResult.Claimed claimed -> {
                Claim claim = claimed.claim();
                inFlight.put(key(claim.key()), claim);
                // The lock item the lease was taken on: in a group of capacity N, one of its slots (0051).
                b.group(claim.lease().group())
                        .lease(
                                claim.fence(),
                                claim.lease().ownerToken(),
                                claim.lease().expiresAt().toEpochMilli())
                        .attempt(claim.attempt());
            }
            case Busy busy -> b.until(busy.until().toEpochMilli()).status(busy.holder());
            case ClaimResult.InProgressElsewhere other ->
                b.until(other.until().toEpochMilli()).status(other.holder());
            case UnderMaintenance m ->
                b.until(m.hold().until().toEpochMilli()).status(m.hold().setBy());
            case EntityDeleted deleted -> b.status(deleted.tombstone().deletedBy());
            case ClaimResult.AlreadyDone done -> b.status(done.record().status().name());
            case ClaimResult.AttemptsExhausted exhausted ->
                b.status(exhausted.last().status().name());
            case dev.punctual.ledger.OperatorSkipped skipped ->
                b.status(skipped.record().skip().orElseThrow().by());
            case ClaimResult.Paused paused ->
                b.status(paused.mark().by())
                        .pauseSpan(
                                paused.mark().from().toEpochMilli(),
                                paused.mark().until().map(Instant::toEpochMilli).orElse(null));
            // Decision 0041: the suite's jobs need no approval, so it never meets this; recorded as read.
            case dev.punctual.ledger.Unapproved unapproved ->
                b.status(unapproved.record().map(r -> r.status().name()).orElse("none"));
        }
        return b;
    }

    private static String key(RunKey key) {
        return key.jobId() + "@" + key.scheduledTime().toEpochMilli();
    }

    @Override
    public ClaimResult claim(ClaimRequest request) {
        return recorded(() -> ledger.claim(request), r -> describeClaim(request, r), claimOp(request));
    }

    @Override
    public ClaimResult claimWaiting(ClaimRequest request, Duration maxWait, Duration pollEvery) {
        return recorded(
                () -> ledger.claimWaiting(request, maxWait, pollEvery),
                r -> describeClaim(request, r),
                claimOp(request));
    }

    private Op.Builder completeOp(Claim claim, Outcome outcome) {
        return op(Op.Kind.COMPLETE)
                .claim(claim)
                .attempt(claim.attempt())
                .outcome(
                        switch (outcome) {
                            case Outcome.Succeeded s -> "SUCCEEDED";
                            case Outcome.Failed f -> "FAILED";
                            case Outcome.Skipped k -> "SKIPPED";
                        });
    }

    @Override
    public CompletionResult complete(Claim claim, Outcome outcome) {
        try {
            return recorded(
                    () -> ledger.complete(claim, outcome),
                    r -> completeOp(claim, outcome)
                            .result(r.getClass().getSimpleName())
                            .status(r.record().status().name())
                            .detail(
                                    r.record().ownerToken() == null
                                            ? null
                                            : "record owner " + r.record().ownerToken()),
                    completeOp(claim, outcome));
        } finally {
            inFlight.remove(key(claim.key()));
        }
    }

    @Override
    public SkipResult recordSkip(RunKey key, Trigger trigger, int schedulerAttempt, SkipReason reason, String detail) {
        Op.Builder base = op(Op.Kind.SKIP)
                .occurrence(key.jobId(), key.scheduledTime().toEpochMilli(), null)
                .outcome(reason.name());
        return recorded(
                () -> ledger.recordSkip(key, trigger, schedulerAttempt, reason, detail),
                r -> base.result(r.getClass().getSimpleName()),
                base);
    }

    @Override
    public boolean recordMissed(RunKey first, Instant last, int count) {
        Op.Builder base = op(Op.Kind.MISSED)
                .occurrence(first.jobId(), first.scheduledTime().toEpochMilli(), null)
                .until(last.toEpochMilli());
        return recorded(() -> ledger.recordMissed(first, last, count), r -> base.result(Boolean.toString(r)), base);
    }

    @Override
    public Optional<Instant> cursor(String jobId) {
        return ledger.cursor(jobId);
    }

    @Override
    public Optional<RunRecord> run(RunKey key) {
        return ledger.run(key);
    }

    /**
     * A heartbeat of a maintenance lease this process took, recorded as a command hold's renewal is
     * ({@link #renewHold}). The operator renews its command holds through HeldMaintenance, which calls
     * {@code renewHold}; this stays recorded so that no extension goes unrecorded. The Jepsen jobs never
     * ask for a heartbeat: extending any other lease is refused, so nothing goes unrecorded or is
     * recorded as what it is not.
     */
    @Override
    public Optional<Lease> extend(Lease lease, Instant until) {
        Optional<Claim> longClaim = inFlight.values().stream()
                .filter(c -> c.lease().ownerToken().equals(lease.ownerToken()))
                .findFirst();
        if (longClaim.isPresent() && !maintenanceTokens.contains(lease.ownerToken())) {
            return extension(longClaim.get(), lease, until);
        }
        return renewal(lease, until, () -> ledger.extend(lease, until));
    }

    /**
     * A long claim's lease extended to its execution's bound (LongStart), recorded as EXTEND so the
     * checker's tenure of the claim lasts until the extended end (or its completion), as any other
     * extension of a lease is recorded. The kill point before it: the claim taken, nothing started.
     */
    private Optional<Lease> extension(Claim claim, Lease lease, Instant until) {
        kills.beforeExtend(claim);
        Op.Builder base = op(Op.Kind.EXTEND)
                .occurrence(claim.key().jobId(), claim.key().scheduledTime().toEpochMilli(), lease.group())
                .held(lease.fence(), lease.ownerToken())
                .attempt(claim.attempt())
                .until(until.toEpochMilli());
        return recorded(
                () -> ledger.extend(lease, until),
                r -> r.map(extended -> base.result(Op.OK)
                                .lease(
                                        extended.fence(),
                                        extended.ownerToken(),
                                        extended.expiresAt().toEpochMilli()))
                        .orElseGet(() -> base.result(Op.REFUSED)),
                base);
    }

    /**
     * A command hold's renewal (HeldMaintenance's, decision 0036) of a maintenance lease this process
     * took, recorded as MAINT_RENEW: the lease sent (group, fence, token) and the end asked for; OK with
     * the renewed lease's end when acknowledged (earlier than the lease's end before it when the renewal
     * shortened the hold: the take's end counts its wait, the first renewal does not), REFUSED when the
     * group is no longer ours, ERROR when unknown.
     */
    @Override
    public Optional<Lease> renewHold(Lease lease, Instant until) {
        return renewal(lease, until, () -> ledger.renewHold(lease, until));
    }

    private Optional<Lease> renewal(Lease lease, Instant until, Supplier<Optional<Lease>> call) {
        if (!maintenanceTokens.contains(lease.ownerToken())) {
            throw new UnsupportedOperationException(
                    "the Jepsen workers renew only the maintenance leases they took (command holds)");
        }
        Op.Builder base = op(Op.Kind.MAINT_RENEW)
                .group(lease.group())
                .held(lease.fence(), lease.ownerToken())
                .until(until.toEpochMilli());
        return recorded(
                call,
                r -> r.map(renewed -> base.result(Op.OK)
                                .lease(
                                        renewed.fence(),
                                        renewed.ownerToken(),
                                        renewed.expiresAt().toEpochMilli()))
                        .orElseGet(() -> base.result(Op.REFUSED)),
                base);
    }

    @Override
    public MaintenanceReport maintenanceOn(MaintenanceRequest request) {
        MaintenanceHold hold = request.hold();
        return recorded(
                () -> ledger.maintenanceOn(request),
                r -> {
                    // The leases a command hold's renewals may renew: these, and only these.
                    r.taken().forEach(l -> maintenanceTokens.add(l.ownerToken()));
                    return op(Op.Kind.MAINT_ON)
                            .result(Op.OK)
                            .until(hold.until().toEpochMilli())
                            .detail(hold.command().map(c -> COMMAND + c).orElse(null))
                            .taken(asHeld(r.taken()))
                            .blocked(r.stillRunning().stream()
                                    .map(b -> new Op.Held(
                                            b.group(), 0, b.holder(), b.until().toEpochMilli()))
                                    .toList());
                },
                op(Op.Kind.MAINT_ON).until(hold.until().toEpochMilli()));
    }

    @Override
    public List<String> maintenanceOff(List<String> groups, Optional<String> setBy) {
        return recorded(
                () -> ledger.maintenanceOff(groups, setBy),
                r -> op(Op.Kind.MAINT_OFF).result(Op.OK).detail(String.join(",", r)),
                op(Op.Kind.MAINT_OFF).detail(String.join(",", groups)));
    }

    /** A command hold given back, recorded as MAINT_RELEASE: the leases sent, and the groups released. */
    @Override
    public List<String> releaseMaintenance(List<Lease> held) {
        Op.Builder base = op(Op.Kind.MAINT_RELEASE).taken(asHeld(held));
        return recorded(
                () -> ledger.releaseMaintenance(held), r -> base.result(Op.OK).detail(String.join(",", r)), base);
    }

    /** Leases as the history records them. */
    private static List<Op.Held> asHeld(List<Lease> leases) {
        return leases.stream()
                .map(l -> new Op.Held(
                        l.group(), l.fence(), l.ownerToken(), l.expiresAt().toEpochMilli()))
                .toList();
    }

    /** Not recorded: the suite deletes no entity (EntityLeaseContract races a delete with a claim). */
    @Override
    public EntityTombstone tombstoneEntity(String ledgerId, String deletedBy) {
        return ledger.tombstoneEntity(ledgerId, deletedBy);
    }

    @Override
    public boolean takeEntityWrite(String ledgerId, String owner, java.time.Duration term) {
        return ledger.takeEntityWrite(ledgerId, owner, term);
    }

    @Override
    public boolean renewEntityWrite(String ledgerId, String owner, java.time.Duration term) {
        return ledger.renewEntityWrite(ledgerId, owner, term);
    }

    @Override
    public void releaseEntityWrite(String ledgerId, String owner) {
        ledger.releaseEntityWrite(ledgerId, owner);
    }

    @Override
    public boolean clearEntityTombstone(String ledgerId) {
        return ledger.clearEntityTombstone(ledgerId);
    }

    @Override
    public dev.punctual.ledger.NextDue noteEntityDue(
            String ledgerId, java.util.function.Function<Instant, Optional<Instant>> nextAfter) {
        return ledger.noteEntityDue(ledgerId, nextAfter);
    }

    @Override
    public LockState lock(String group) {
        return ledger.lock(group);
    }

    @Override
    public java.util.Map<String, dev.punctual.ledger.PauseMark> pauses(java.util.Collection<String> lockIds) {
        return ledger.pauses(lockIds);
    }

    @Override
    public Optional<MaintenanceHold> maintenance(String group) {
        return ledger.maintenance(group);
    }

    @Override
    public SkipPlan skip(RunKey key, String by, String why) {
        Op.Builder base = op(Op.Kind.SKIP_PLAN)
                .occurrence(key.jobId(), key.scheduledTime().toEpochMilli(), null)
                .status(by);
        return recorded(
                () -> ledger.skip(key, by, why), r -> base.result(r.getClass().getSimpleName()), base);
    }

    @Override
    public Unskip unskip(RunKey key) {
        Op.Builder base =
                op(Op.Kind.UNSKIP).occurrence(key.jobId(), key.scheduledTime().toEpochMilli(), null);
        return recorded(() -> ledger.unskip(key), r -> base.result(r.getClass().getSimpleName()), base);
    }

    @Override
    public Optional<RunRecord> actOnSkip(RunRecord planned, Trigger trigger, int schedulerAttempt) {
        RunKey key = planned.key();
        Op.Builder base = op(Op.Kind.SKIP_ACT)
                .occurrence(key.jobId(), key.scheduledTime().toEpochMilli(), null)
                .attempt(schedulerAttempt)
                .detail(trigger.name());
        return recorded(
                () -> ledger.actOnSkip(planned, trigger, schedulerAttempt),
                r -> base.result(r.isPresent() ? Op.OK : Op.GONE),
                base);
    }

    /**
     * An operator's pause (decision 0040), recorded as PAUSE with the mark as the ledger returned it: its
     * start on the ledger's (this process's) clock, and its end when it has one.
     */
    @Override
    public PauseOutcome pause(String lockId, String by, String why, Optional<Instant> until, boolean catchUp) {
        Op.Builder base = op(Op.Kind.PAUSE).group(lockId).status(by).outcome(catchUp ? CATCH_UP : SKIP);
        until.ifPresent(u -> base.until(u.toEpochMilli()));
        return recorded(
                () -> ledger.pause(lockId, by, why, until, catchUp),
                r -> switch (r) {
                    case PauseOutcome.Set set ->
                        span(base.result("Set"), set.after().pause());
                    case PauseOutcome.AlreadyPaused standing -> span(base.result("AlreadyPaused"), standing.standing());
                },
                base);
    }

    /** What the history says a lapsing pause's span becomes: caught up, or kept refused. */
    static final String CATCH_UP = "catch-up";

    static final String SKIP = "skip";

    /** Builds the PAUSE line's span from the outcome (the mark set, or the one standing). */
    private static Op.Builder span(Op.Builder b, PauseMark mark) {
        return b.pauseSpan(
                mark.from().toEpochMilli(),
                mark.until().map(Instant::toEpochMilli).orElse(null));
    }

    /**
     * An operator's resume, recorded as RESUME: the choice, the lifted mark's start, and for SKIP_PAUSED the
     * end of the span the ledger keeps refused.
     */
    @Override
    public ResumeOutcome resume(String lockId, ResumeChoice choice) {
        Op.Builder base = op(Op.Kind.RESUME).group(lockId).outcome(choice.name());
        return recorded(
                () -> ledger.resume(lockId, choice),
                r -> {
                    base.result(r.getClass().getSimpleName());
                    if (r instanceof ResumeOutcome.Resumed(PauseMark before, Optional<PauseMark> after)) {
                        base.pauseSpan(
                                before.from().toEpochMilli(),
                                after.flatMap(PauseMark::until)
                                        .map(Instant::toEpochMilli)
                                        .orElse(null));
                    }
                    return base;
                },
                base);
    }

    @Override
    public java.util.List<dev.punctual.ledger.RunRecord> skipsAhead(String jobId) {
        return ledger.skipsAhead(jobId);
    }
}
