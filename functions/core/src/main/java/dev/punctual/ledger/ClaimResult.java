package dev.punctual.ledger;

import java.time.Instant;

/** The answer to "may this invocation run this occurrence now?". Every case is an ordinary value. */
public sealed interface ClaimResult
        permits ClaimResult.Claimed,
                ClaimResult.AlreadyDone,
                ClaimResult.InProgressElsewhere,
                ClaimResult.AttemptsExhausted,
                ClaimResult.Paused,
                Busy,
                UnderMaintenance,
                EntityDeleted,
                OperatorSkipped,
                Unapproved {

    /** This invocation holds the lease and owns the occurrence; it must complete the claim. */
    record Claimed(Claim claim) implements ClaimResult {}

    /**
     * The occurrence already succeeded: a duplicate delivery, nothing to do. For a redelivery of the
     * job's latest occurrence the record comes from the job's slot (status, attempts, owner, fence,
     * trigger, start); {@link RunLedger#run} reads the full record.
     */
    record AlreadyDone(RunRecord record) implements ClaimResult {}

    /** Another live invocation is running this very occurrence. */
    record InProgressElsewhere(String holder, Instant until) implements ClaimResult {}

    /** The occurrence failed as often as the job allows; only a forced manual run may try again. */
    record AttemptsExhausted(RunRecord last) implements ClaimResult {}

    /**
     * An operator paused the job, its lock group, or the entity (decision 0040): {@code id} is the lock
     * item whose mark refused the claim, in the write the claim already sends; {@code mark} says who,
     * why, since when and until when. Nothing was claimed.
     */
    record Paused(String id, PauseMark mark) implements ClaimResult {}
}
