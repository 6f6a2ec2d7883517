package dev.punctual.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The one retry rule, and the final failure that pages, which is its opposite for every failure. */
class RetriesTest {

    @Test
    void onlyAScheduledDeliveryWithAttemptsLeft_forARetriedReason_isTriedAgain() {
        assertThat(Retries.willRetry(Reason.JOB_ERROR, true, 1, 3)).isTrue();
        assertThat(Retries.willRetry(Reason.JOB_ERROR, true, 3, 3))
                .as("the last attempt")
                .isFalse();
        assertThat(Retries.willRetry(Reason.JOB_ERROR, false, 1, 3))
                .as("a manual run or a replay")
                .isFalse();
        assertThat(Retries.willRetry(Reason.ATTEMPTS_EXHAUSTED, true, 1, 3))
                .as("a reason never retried")
                .isFalse();
    }

    @Test
    void aFailureIsFinal_exactlyWhenItIsNotRetried_forEveryReasonTriggerAndAttempt() {
        for (Reason reason : Reason.values()) {
            if (reason.verdict() != Verdict.FAIL) {
                continue;
            }
            for (String trigger : new String[] {"SCHEDULED", "MANUAL", "REPLAY"}) {
                for (int attempt = 1; attempt <= 4; attempt++) {
                    OccurrenceOutcome outcome = outcome(reason, trigger, attempt);
                    assertThat(outcome.finalFailure(3))
                            .as("%s %s attempt %d", reason, trigger, attempt)
                            .isEqualTo(!Retries.willRetry(reason, trigger.equals("SCHEDULED"), attempt, 3));
                }
            }
        }
    }

    private static OccurrenceOutcome outcome(Reason reason, String trigger, int attempt) {
        Instant nine = Instant.parse("2027-03-01T09:00:00Z");
        return OccurrenceOutcome.of("dev", "nightly", nine, nine.atZone(java.time.ZoneOffset.UTC), trigger, reason)
                .attempt(attempt)
                .build();
    }
}
