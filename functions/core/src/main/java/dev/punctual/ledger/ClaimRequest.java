package dev.punctual.ledger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One invocation asking to run one occurrence.
 *
 * @param lockGroup the job's id unless it shares a named group
 * @param schedulerAttempt EventBridge Scheduler's attempt number (1 for manual runs)
 * @param maxAttempts failed attempts allowed before the occurrence is exhausted
 * @param force a manual re-run of an occurrence that already succeeded or exhausted its attempts
 * @param leaseUntil the invocation's deadline, see {@link Lease#deadline}
 */
public record ClaimRequest(
        RunKey key,
        String lockGroup,
        Trigger trigger,
        int schedulerAttempt,
        int maxAttempts,
        boolean force,
        Instant leaseUntil) {

    public ClaimRequest {
        Objects.requireNonNull(key, "key");
        Ids.require(lockGroup, "lockGroup");
        Objects.requireNonNull(trigger, "trigger");
        leaseUntil = Objects.requireNonNull(leaseUntil, "leaseUntil").truncatedTo(ChronoUnit.MILLIS);
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
    }

    /** A scheduled delivery of a job in its own lock group. */
    public static ClaimRequest scheduled(RunKey key, int schedulerAttempt, int maxAttempts, Instant leaseUntil) {
        return new ClaimRequest(key, key.jobId(), Trigger.SCHEDULED, schedulerAttempt, maxAttempts, false, leaseUntil);
    }

    public ClaimRequest inGroup(String group) {
        return new ClaimRequest(key, group, trigger, schedulerAttempt, maxAttempts, force, leaseUntil);
    }

    public ClaimRequest forced(Trigger newTrigger) {
        return new ClaimRequest(key, lockGroup, newTrigger, schedulerAttempt, maxAttempts, true, leaseUntil);
    }
}
