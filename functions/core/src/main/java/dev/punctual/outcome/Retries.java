package dev.punctual.outcome;

/**
 * The one rule for whether a failed occurrence is tried again: only a scheduler's delivery is (Lambda
 * retries the invocation when the handler throws), only for a reason that is retried, and only while the
 * occurrence has attempts left. The handler's retry decision and the "final failure" that pages both ask
 * this, so they cannot disagree about which failures come back.
 */
public final class Retries {

    private Retries() {}

    /**
     * @param scheduledDelivery whether the occurrence ran for a scheduler's delivery (its catch-up
     *     included), not for a manual run or a replay, which no retry follows
     * @param attempt the attempt that just ended (1 for the first)
     * @param maxAttempts the job's {@code maxAttempts}
     */
    public static boolean willRetry(Reason reason, boolean scheduledDelivery, int attempt, int maxAttempts) {
        return scheduledDelivery && reason.retried() && attempt < maxAttempts;
    }
}
