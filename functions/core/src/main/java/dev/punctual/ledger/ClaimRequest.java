package dev.punctual.ledger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * One invocation asking to run one occurrence.
 *
 * @param lockGroup the job's id unless it shares a named group
 * @param schedulerAttempt EventBridge Scheduler's attempt number (1 for manual runs)
 * @param maxAttempts failed attempts allowed before the occurrence is exhausted
 * @param force a manual re-run of an occurrence that already succeeded or exhausted its attempts
 * @param leaseUntil the invocation's deadline, see {@link Lease#deadline}
 * @param holdGroup for an entity's own lease ({@code lockGroup} is then the entity's ledger id): the job's
 *     group, whose maintenance hold the claim checks in the same request (decision 0029, 5)
 * @param expectedCursor for an entity's own lease: the occurrence before this one, where the cursor of an
 *     in-order occurrence stands; the one-request claim is conditional on it (a transaction returns no
 *     item), anything else takes the general path
 * @param approvalRequired the job needs an operator's approval of the occurrence (decision 0041): the claim
 *     carries APPROVED in the write it already sends and removes the mark there; false sends exactly what
 *     a claim sent before
 * @param groupCapacity how many runs the lock group admits at once (decision 0051): 1 is one lease item, as
 *     before; N tries the group's N slots ({@link LockSlots}), the one the occurrence hashes to first
 */
public record ClaimRequest(
        RunKey key,
        String lockGroup,
        Trigger trigger,
        int schedulerAttempt,
        int maxAttempts,
        boolean force,
        Instant leaseUntil,
        Optional<String> holdGroup,
        Optional<Instant> expectedCursor,
        boolean approvalRequired,
        int groupCapacity) {

    public ClaimRequest {
        Objects.requireNonNull(key, "key");
        Ids.require(lockGroup, "lockGroup");
        Objects.requireNonNull(trigger, "trigger");
        leaseUntil = Objects.requireNonNull(leaseUntil, "leaseUntil").truncatedTo(ChronoUnit.MILLIS);
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        holdGroup = Objects.requireNonNull(holdGroup, "holdGroup");
        holdGroup.ifPresent(g -> Ids.require(g, "holdGroup"));
        expectedCursor =
                Objects.requireNonNull(expectedCursor, "expectedCursor").map(c -> c.truncatedTo(ChronoUnit.MILLIS));
        if (holdGroup.isPresent() && !lockGroup.equals(key.jobId())) {
            throw new IllegalArgumentException(
                    "holdGroup: an entity's own lease is its ledger id " + key.jobId() + ", not " + lockGroup);
        }
        if (holdGroup.isPresent() && holdGroup.get().equals(lockGroup)) {
            // One transaction cannot check and write the same item (DynamoDB refuses it as invalid).
            throw new IllegalArgumentException(
                    "holdGroup: " + lockGroup + " is the entity's own lease; accepted: the job's group, another item");
        }
        LockSlots.requireCapacity(groupCapacity, "groupCapacity");
        if (groupCapacity > 1 && (holdGroup.isPresent() || lockGroup.equals(key.jobId()))) {
            // A job's own item (and an entity's) keeps one occurrence in flight: only a named group has slots.
            throw new IllegalArgumentException("groupCapacity " + groupCapacity + " of " + lockGroup
                    + ": accepted only for a named group its jobs share; a job's own group or an entity's lease is 1");
        }
    }

    /** A claim on a group of capacity 1 (the form before decision 0051). */
    public ClaimRequest(
            RunKey key,
            String lockGroup,
            Trigger trigger,
            int schedulerAttempt,
            int maxAttempts,
            boolean force,
            Instant leaseUntil,
            Optional<String> holdGroup,
            Optional<Instant> expectedCursor,
            boolean approvalRequired) {
        this(
                key,
                lockGroup,
                trigger,
                schedulerAttempt,
                maxAttempts,
                force,
                leaseUntil,
                holdGroup,
                expectedCursor,
                approvalRequired,
                1);
    }

    /** The same claim in a group admitting {@code capacity} runs at once (decision 0051). */
    public ClaimRequest withGroupCapacity(int capacity) {
        return new ClaimRequest(
                key,
                lockGroup,
                trigger,
                schedulerAttempt,
                maxAttempts,
                force,
                leaseUntil,
                holdGroup,
                expectedCursor,
                approvalRequired,
                capacity);
    }

    /** A claim that needs no approval (the form before decision 0041). */
    public ClaimRequest(
            RunKey key,
            String lockGroup,
            Trigger trigger,
            int schedulerAttempt,
            int maxAttempts,
            boolean force,
            Instant leaseUntil,
            Optional<String> holdGroup,
            Optional<Instant> expectedCursor) {
        this(
                key,
                lockGroup,
                trigger,
                schedulerAttempt,
                maxAttempts,
                force,
                leaseUntil,
                holdGroup,
                expectedCursor,
                false);
    }

    /** The same claim of an occurrence that needs an operator's approval (decision 0041). */
    public ClaimRequest needingApproval() {
        return new ClaimRequest(
                key,
                lockGroup,
                trigger,
                schedulerAttempt,
                maxAttempts,
                force,
                leaseUntil,
                holdGroup,
                expectedCursor,
                true,
                groupCapacity);
    }

    /** A claim on the group's lease (a job's own group, or a shared one). */
    public ClaimRequest(
            RunKey key,
            String lockGroup,
            Trigger trigger,
            int schedulerAttempt,
            int maxAttempts,
            boolean force,
            Instant leaseUntil) {
        this(
                key,
                lockGroup,
                trigger,
                schedulerAttempt,
                maxAttempts,
                force,
                leaseUntil,
                Optional.empty(),
                Optional.empty());
    }

    /**
     * The same claim on the entity's own lease ({@code key.jobId()}, the ledger id {@code job:entity}),
     * held off by a maintenance hold on {@code group}; {@code expectedCursor} as above.
     */
    public ClaimRequest onEntityLease(String group, Optional<Instant> cursor) {
        return new ClaimRequest(
                key,
                key.jobId(),
                trigger,
                schedulerAttempt,
                maxAttempts,
                force,
                leaseUntil,
                Optional.of(group),
                cursor,
                approvalRequired,
                1);
    }

    /** A scheduled delivery of a job in its own lock group. */
    public static ClaimRequest scheduled(RunKey key, int schedulerAttempt, int maxAttempts, Instant leaseUntil) {
        return new ClaimRequest(key, key.jobId(), Trigger.SCHEDULED, schedulerAttempt, maxAttempts, false, leaseUntil);
    }

    public ClaimRequest inGroup(String group) {
        return new ClaimRequest(
                key,
                group,
                trigger,
                schedulerAttempt,
                maxAttempts,
                force,
                leaseUntil,
                holdGroup,
                expectedCursor,
                approvalRequired,
                1);
    }

    public ClaimRequest forced(Trigger newTrigger) {
        return new ClaimRequest(
                key,
                lockGroup,
                newTrigger,
                schedulerAttempt,
                maxAttempts,
                true,
                leaseUntil,
                holdGroup,
                expectedCursor,
                approvalRequired,
                groupCapacity);
    }
}
