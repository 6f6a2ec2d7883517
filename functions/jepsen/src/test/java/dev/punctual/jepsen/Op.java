package dev.punctual.jepsen;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.punctual.ledger.Claim;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One line of a Jepsen-style history: one operation of one process, recorded when it returned (so a
 * line is complete or absent, never half an operation). Times are taken twice: on the reference clock
 * (the machine's, shared by every process, in epoch microseconds) and on the process's own skewed clock
 * (the one its ledger uses, in epoch milliseconds). Fields that do not apply to a kind are null.
 *
 * @param proc the process: {@code w<n>.<incarnation>} for a worker, {@code op<n>.<incarnation>} for an operator
 * @param skewMs how far the process's clock is ahead of the reference clock (negative: behind)
 * @param via {@code direct} (the worker calls the ledger), {@code runtime} (through PunctualRuntime) or
 *     {@code operator}
 * @param t0 reference clock when the operation was invoked, epoch µs
 * @param t1 reference clock when it returned, epoch µs
 * @param c0 the process's clock when it was invoked, epoch ms
 * @param c1 the process's clock when it returned, epoch ms
 * @param occ the occurrence, epoch ms
 * @param result what the call returned: the ClaimResult or CompletionResult type, APPLIED / REFUSED for a
 *     domain write, OK, or ERROR when it threw (its outcome is then unknown)
 * @param fence the lease's fence (claims, completions, domain writes, kills)
 * @param token the lease's owner token
 * @param leaseUntil the lease's end by the ledger's rule, epoch ms on the holder's clock; for MAINT_RENEW,
 *     the renewed lease's end (present only when the renewal was acknowledged)
 * @param outcome the outcome the job reported to {@code complete}: SUCCEEDED, FAILED or SKIPPED
 * @param status the status of the record the completion returned; for a claim refused by a lease, who
 *     holds it (a job id, or for maintenance who set it)
 * @param until the end of the lease that blocked a claim (Busy, InProgressElsewhere, UnderMaintenance);
 *     for MAINT_ON, the hold's end; for MAINT_RENEW, the end asked for
 * @param taken the leases maintenance took (MAINT_ON), or gave back (MAINT_RELEASE)
 * @param blocked the runs maintenance found still holding their groups (MAINT_ON)
 * @param seq a domain write that landed: its position in the domain item's own write order
 * @param seenFence a domain write the fence guard refused: the fence the item held
 * @param input a payload sent to the runtime
 * @param expect the refusal code the payload must get, or null when it must run
 * @param code the refusal code it got, or null when it ran
 * @param writes write requests (either table) sent while the payload was handled
 * @param requests requests of any kind sent while the payload was handled
 * @param counters END and KILL: the faults injected into this process's requests, by kind, and totals
 * @param chunk a long occurrence's chunk key (CHUNK, CHUNK_EFFECT, and a KILL before a chunk's record)
 * @param execution a long occurrence's execution name (EXEC_NOTE, EXEC_START)
 * @param pausedFrom a pause's span start as the ledger returned it (its clock: the pausing process's),
 *     epoch ms: PAUSE (the mark set, or the one standing), RESUME (the mark lifted), a claim refused as Paused
 * @param pausedTo a pause's end as the ledger returned it, epoch ms: PAUSE with {@code until}, RESUME
 *     with {@code SKIP_PAUSED} (the span kept refused), a claim refused by an ended span
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Op(
        String proc,
        long skewMs,
        Kind kind,
        String via,
        long t0,
        long t1,
        long c0,
        long c1,
        String job,
        Long occ,
        String group,
        String result,
        Long fence,
        String token,
        Long leaseUntil,
        Integer attempt,
        String outcome,
        String status,
        Long until,
        List<Held> taken,
        List<Held> blocked,
        Long seq,
        Long seenFence,
        String input,
        String expect,
        String code,
        Long writes,
        Long requests,
        Map<String, Long> counters,
        String detail,
        String chunk,
        String execution,
        Long pausedFrom,
        Long pausedTo) {

    public enum Kind {
        /** The process started (its parameters are in {@code detail}). */
        START,
        CLAIM,
        COMPLETE,
        /** A skip recorded through the ledger (the runtime's LOCK_BUSY, MAINTENANCE, DEFERRED ...). */
        SKIP,
        /** A missed range recorded by the runtime's catch-up. */
        MISSED,
        /** The job's side effect: one fenced write to the domain table. */
        DOMAIN_WRITE,
        /** The process halts itself now, after the side effect and before the commit. */
        KILL,
        /** A payload handled by PunctualRuntime. */
        PAYLOAD,
        /**
         * Maintenance turned on ({@code maintenance on}, or a command hold's take: then {@code detail} is
         * {@code command: ...}): the leases taken ({@code taken}) and those still running ({@code blocked}).
         */
        MAINT_ON,
        MAINT_OFF,
        /**
         * A command hold's renewal (decision 0036): {@code RunLedger.renewHold} (HeldMaintenance's) of one
         * maintenance lease this process took ({@code group}, {@code fence}, {@code token}) to {@code until}
         * (now + lapse on its clock), which may be earlier than the lease's end (the take's end counts its
         * wait). OK with {@code leaseUntil} the renewed lease's end (acknowledged), REFUSED when the ledger
         * answered that the group is no longer ours (lifted, forced over or lapsed), ERROR when unknown.
         */
        MAINT_RENEW,
        /**
         * A command hold given back: {@code RunLedger.releaseMaintenance} of the leases in {@code taken}; OK
         * with the groups actually released in {@code detail}, ERROR when unknown.
         */
        MAINT_RELEASE,
        /** An operator's skip of one occurrence ahead of time (decision 0033): the SkipPlan it got. */
        SKIP_PLAN,
        /** An operator's unskip: the Unskip it got. */
        UNSKIP,
        /** A delivery that met a planned skip marking it as met: OK, or GONE when an unskip came first. */
        SKIP_ACT,
        /**
         * A long claim's lease extended to its execution's bound (decision 0039, 2.1): the claim's
         * {@code fence} and {@code token}, {@code until} the end asked for; OK with {@code leaseUntil} the
         * extended end, REFUSED when the lease was no longer the claim's, ERROR when unknown.
         */
        EXTEND,
        /**
         * {@code LongRunLedger.noteExecution}: the execution ({@code execution}) noted under the claim's lease;
         * {@code result} NOTED or FENCED (or ERROR), {@code attempt} the chunks planned (-1 for the starter's
         * note, before the plan).
         */
        EXEC_NOTE,
        /**
         * {@code StartExecution} of a long occurrence's execution on moto's Step Functions: its name, the
         * claim's fence and token (from the input), and the answer: Started, AlreadyExists or ERROR.
         */
        EXEC_START,
        /**
         * {@code LongRunLedger.recordChunk}: one attempt of a chunk ({@code chunk}) under the claim's lease,
         * {@code outcome} what the attempt reported, {@code result} Recorded, AlreadySucceeded, Fenced or
         * ERROR; when recorded, {@code status} the stored status and {@code attempt} the stored attempts.
         */
        CHUNK,
        /**
         * A chunk's record about to be sent: written (one unbuffered write, see {@link HistoryLog}) before
         * {@code LongRunLedger.recordChunk} is called, with the CHUNK line's fields but no {@code result}, and
         * its {@code t0}, which the CHUNK line answering it repeats. A process halted while the call was in
         * flight (another chunk's thread halting it, the chunks running at once) leaves this line unanswered:
         * the record may have landed, and the checker counts it as possibly done, as an ERROR.
         */
        CHUNK_INTENT,
        /** A chunk's side effect: one fenced write to the item of (occurrence, chunk) in the domain table. */
        CHUNK_EFFECT,
        /**
         * An operator's pause (decision 0040) of the lock item {@code group} ({@link JepsenJobs#PAUSABLE}):
         * {@code until} the end asked for (absent: until resumed), {@code outcome} {@code catch-up} or
         * {@code skip} (what the span becomes once it lapses); {@code result} Set (with the mark's
         * {@code pausedFrom} and {@code pausedTo}), AlreadyPaused (the standing mark's) or ERROR.
         */
        PAUSE,
        /**
         * An operator's resume of the lock item {@code group}: {@code outcome} the choice (CATCH_UP,
         * SKIP_PAUSED); {@code result} Resumed (the lifted mark's {@code pausedFrom}, and for SKIP_PAUSED the
         * kept span's end {@code pausedTo}), NotPaused or ERROR.
         */
        RESUME,
        /** The process finished its work and exits. */
        END
    }

    /** A lease as maintenance reports it: taken (fence, token) or still held by a run (holder). */
    public record Held(String group, long fence, String token, long until) {}

    /** Results, as the history spells them. */
    public static final String ERROR = "ERROR";

    public static final String APPLIED = "APPLIED";
    public static final String REFUSED = "REFUSED";
    public static final String OK = "OK";
    public static final String GONE = "GONE";

    public String occurrenceKey() {
        return job + "@" + (occ == null ? "?" : Instant.ofEpochMilli(occ));
    }

    /** A short form for anomaly reports. */
    public String brief() {
        StringBuilder b = new StringBuilder()
                .append(proc)
                .append(' ')
                .append(kind)
                .append(' ')
                .append(result);
        if (job != null) {
            b.append(' ').append(occurrenceKey());
        }
        if (group != null) {
            b.append(" group=").append(group);
        }
        if (fence != null) {
            b.append(" fence=").append(fence);
        }
        if (token != null) {
            b.append(" token=").append(token, 0, Math.min(8, token.length()));
        }
        if (leaseUntil != null) {
            b.append(" leaseUntil=").append(Instant.ofEpochMilli(leaseUntil));
        }
        if (chunk != null) {
            b.append(" chunk=").append(chunk);
        }
        if (execution != null) {
            b.append(" execution=").append(execution);
        }
        if (pausedFrom != null) {
            b.append(" paused=[").append(Instant.ofEpochMilli(pausedFrom)).append(" .. ");
            b.append(pausedTo == null ? "resume" : Instant.ofEpochMilli(pausedTo))
                    .append(')');
        }
        if (until != null && (kind == Kind.PAUSE || pausedFrom != null)) {
            b.append(" until=").append(Instant.ofEpochMilli(until));
        }
        if (outcome != null && (kind == Kind.PAUSE || kind == Kind.RESUME || kind == Kind.SKIP)) {
            b.append(" outcome=").append(outcome);
        }
        if (status != null) {
            b.append(" status=").append(status);
        }
        if (seq != null) {
            b.append(" seq=").append(seq);
        }
        if (seenFence != null) {
            b.append(" seenFence=").append(seenFence);
        }
        if (code != null || expect != null) {
            b.append(" code=").append(code).append(" expect=").append(expect);
        }
        if (writes != null) {
            b.append(" writes=").append(writes).append(" requests=").append(requests);
        }
        b.append(" t=[")
                .append(Instant.ofEpochSecond(t0 / 1_000_000, (t0 % 1_000_000) * 1000))
                .append(" .. ")
                .append(Instant.ofEpochSecond(t1 / 1_000_000, (t1 % 1_000_000) * 1000))
                .append("] skew=")
                .append(skewMs)
                .append("ms");
        return b.toString();
    }

    public static Builder of(String proc, long skewMs, Kind kind) {
        return new Builder(proc, skewMs, kind);
    }

    /** Fluent construction, for the workers and for hand-made histories in tests. */
    public static final class Builder {
        private final String proc;
        private final long skewMs;
        private final Kind kind;
        private String via;
        private long t0;
        private long t1;
        private long c0;
        private long c1;
        private String job;
        private Long occ;
        private String group;
        private String result;
        private Long fence;
        private String token;
        private Long leaseUntil;
        private Integer attempt;
        private String outcome;
        private String status;
        private Long until;
        private List<Held> taken;
        private List<Held> blocked;
        private Long seq;
        private Long seenFence;
        private String input;
        private String expect;
        private String code;
        private Long writes;
        private Long requests;
        private Map<String, Long> counters;
        private String detail;
        private String chunk;
        private String execution;
        private Long pausedFrom;
        private Long pausedTo;

        private Builder(String proc, long skewMs, Kind kind) {
            this.proc = proc;
            this.skewMs = skewMs;
            this.kind = kind;
        }

        public Builder via(String value) {
            this.via = value;
            return this;
        }

        /** Reference times in µs and the process's clock in ms. */
        public Builder times(long refInvokedMicros, long refReturnedMicros, long ownInvokedMs, long ownReturnedMs) {
            this.t0 = refInvokedMicros;
            this.t1 = refReturnedMicros;
            this.c0 = ownInvokedMs;
            this.c1 = ownReturnedMs;
            return this;
        }

        /** Reference times in ms; the process's clock follows from the skew. For hand-made histories. */
        public Builder atMillis(long refInvokedMs, long refReturnedMs) {
            return times(refInvokedMs * 1000, refReturnedMs * 1000, refInvokedMs + skewMs, refReturnedMs + skewMs);
        }

        public Builder occurrence(String jobId, long occurrenceMs, String lockGroup) {
            this.job = jobId;
            this.occ = occurrenceMs;
            this.group = lockGroup;
            return this;
        }

        public Builder group(String lockGroup) {
            this.group = lockGroup;
            return this;
        }

        public Builder result(String value) {
            this.result = value;
            return this;
        }

        /** The claim's occurrence and lease, as the recorded operations on a claim all carry them. */
        public Builder claim(Claim claim) {
            return occurrence(
                            claim.key().jobId(),
                            claim.key().scheduledTime().toEpochMilli(),
                            claim.lease().group())
                    .lease(
                            claim.fence(),
                            claim.lease().ownerToken(),
                            claim.lease().expiresAt().toEpochMilli());
        }

        public Builder lease(long leaseFence, String ownerToken, long leaseEndMs) {
            this.fence = leaseFence;
            this.token = ownerToken;
            this.leaseUntil = leaseEndMs;
            return this;
        }

        /** The lease a call was about, without its end: a renewal that was refused or is unknown. */
        public Builder held(long leaseFence, String ownerToken) {
            this.fence = leaseFence;
            this.token = ownerToken;
            return this;
        }

        public Builder attempt(int value) {
            this.attempt = value;
            return this;
        }

        public Builder outcome(String value) {
            this.outcome = value;
            return this;
        }

        public Builder status(String value) {
            this.status = value;
            return this;
        }

        public Builder until(long blockingLeaseEndMs) {
            this.until = blockingLeaseEndMs;
            return this;
        }

        public Builder taken(List<Held> value) {
            this.taken = List.copyOf(value);
            return this;
        }

        public Builder blocked(List<Held> value) {
            this.blocked = List.copyOf(value);
            return this;
        }

        public Builder landed(long sequence) {
            this.seq = sequence;
            return this;
        }

        public Builder refusedBy(long storedFence) {
            this.seenFence = storedFence;
            return this;
        }

        public Builder payload(String sent, String expectedCode, String gotCode, long writeCount, long requestCount) {
            this.input = sent;
            this.expect = expectedCode;
            this.code = gotCode;
            this.writes = writeCount;
            this.requests = requestCount;
            return this;
        }

        public Builder counters(Map<String, Long> value) {
            this.counters = Map.copyOf(value);
            return this;
        }

        public Builder detail(String value) {
            this.detail = value;
            return this;
        }

        public Builder chunk(String value) {
            this.chunk = value;
            return this;
        }

        public Builder execution(String value) {
            this.execution = value;
            return this;
        }

        /** A pause's span as the ledger returned it: its start and, when it has one, its end. */
        public Builder pauseSpan(long from, Long to) {
            this.pausedFrom = from;
            this.pausedTo = to;
            return this;
        }

        public Op build() {
            return new Op(
                    proc,
                    skewMs,
                    kind,
                    via,
                    t0,
                    t1,
                    c0,
                    c1,
                    job,
                    occ,
                    group,
                    result,
                    fence,
                    token,
                    leaseUntil,
                    attempt,
                    outcome,
                    status,
                    until,
                    taken,
                    blocked,
                    seq,
                    seenFence,
                    input,
                    expect,
                    code,
                    writes,
                    requests,
                    counters,
                    detail,
                    chunk,
                    execution,
                    pausedFrom,
                    pausedTo);
        }
    }
}
