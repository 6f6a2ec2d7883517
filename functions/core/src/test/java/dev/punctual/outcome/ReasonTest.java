package dev.punctual.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.SkipReason;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReasonTest {

    /**
     * The wire value and verdict of every reason, written out: outcome lines, JSON results and events
     * carry these strings, and docs/queries.md, the runbook, saved queries and events/ match on them. A
     * renamed constant must fail here, not in an operator's query.
     */
    @Test
    void everyReason_keepsItsWireStringAndVerdict() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("OK", "PASS");
        expected.put("ALREADY_DONE", "SKIP");
        expected.put("IN_PROGRESS_ELSEWHERE", "SKIP");
        expected.put("LOCK_BUSY", "SKIP");
        expected.put("MAINTENANCE", "SKIP");
        expected.put("MAINTENANCE_UNKNOWN", "SKIP");
        expected.put("DESTRUCTIVE_DISABLED", "SKIP");
        expected.put("SCHEDULES_DISABLED", "SKIP");
        expected.put("NOT_AN_OCCURRENCE", "SKIP");
        // A delivery of an RRULE's containing cron that is not an occurrence of the rule (decision 0049).
        expected.put("OUTSIDE_RULE", "SKIP");
        expected.put("ENTITY_DELETED", "SKIP");
        expected.put("DEADLINE_PASSED", "SKIP");
        expected.put("OPERATOR_SKIPPED", "SKIP");
        expected.put("PAUSED", "SKIP");
        expected.put("UNAPPROVED", "SKIP");
        expected.put("CALENDAR", "SKIP");
        expected.put("BLACKOUT", "SKIP");
        expected.put("CALENDAR_ENDED", "SKIP");
        // A dead-lettered delivery, recorded by the stage's dead-letter consumer (decision 0044).
        expected.put("UNDELIVERED", "SKIP");
        expected.put("DEFERRED", "SKIP");
        expected.put("DEADLINE", "SKIP");
        expected.put("EARLIER_FAILED", "SKIP");
        expected.put("DRY_RUN", "SKIP");
        expected.put("JOB_ERROR", "FAIL");
        expected.put("FENCED", "FAIL");
        expected.put("LEASE_ENDED", "FAIL");
        expected.put("ATTEMPTS_EXHAUSTED", "FAIL");
        // A long job's (decision 0039): handed to its execution, a chunk's last failure, an execution that
        // ended otherwise, an operator's cancel (decided, not paged).
        expected.put("STARTED", "PASS");
        expected.put("CHUNK_FAILED", "FAIL");
        expected.put("EXECUTION_FAILED", "FAIL");
        expected.put("CANCELLED", "SKIP");

        Map<String, String> actual = new LinkedHashMap<>();
        Arrays.stream(Reason.values())
                .forEach(r -> actual.put(r.wire(), r.verdict().name()));

        assertThat(actual).containsExactlyEntriesOf(expected);
    }

    @Test
    void onlyAFailureOfTheJobOrItsLease_isRetried_andStopsTheBatch() {
        assertThat(Arrays.stream(Reason.values()).filter(Reason::retried))
                .containsExactly(Reason.JOB_ERROR, Reason.FENCED, Reason.LEASE_ENDED);
        assertThat(Arrays.stream(Reason.values()).filter(Reason::stopsTheBatch))
                .containsExactly(Reason.JOB_ERROR, Reason.FENCED, Reason.LEASE_ENDED);
    }

    @Test
    void refusalsOfTheWholeJob_areStageSwitchesTheGroupBeingHeldAndADeletedEntity_andAreAllRecorded() {
        assertThat(Arrays.stream(Reason.values()).filter(Reason::refusesTheJob))
                .containsExactly(
                        Reason.LOCK_BUSY,
                        Reason.MAINTENANCE,
                        Reason.MAINTENANCE_UNKNOWN,
                        Reason.DESTRUCTIVE_DISABLED,
                        Reason.SCHEDULES_DISABLED,
                        Reason.ENTITY_DELETED);
        assertThat(Arrays.stream(Reason.values()).filter(Reason::refusesTheJob))
                .allSatisfy(r -> assertThat(r.recordedAs()).isPresent());
    }

    @Test
    void reasonsRecordedInTheLedger_areExactlyTheSkipsThatWriteARunItem() {
        Map<Reason, SkipReason> recorded = new LinkedHashMap<>();
        Arrays.stream(Reason.values()).forEach(r -> r.recordedAs().ifPresent(category -> recorded.put(r, category)));

        assertThat(recorded)
                .containsExactly(
                        Map.entry(Reason.LOCK_BUSY, SkipReason.LOCK_BUSY),
                        Map.entry(Reason.MAINTENANCE, SkipReason.MAINTENANCE),
                        Map.entry(Reason.MAINTENANCE_UNKNOWN, SkipReason.MAINTENANCE_UNKNOWN),
                        Map.entry(Reason.DESTRUCTIVE_DISABLED, SkipReason.REFUSED),
                        Map.entry(Reason.SCHEDULES_DISABLED, SkipReason.DISABLED),
                        Map.entry(Reason.NOT_AN_OCCURRENCE, SkipReason.REFUSED),
                        Map.entry(Reason.ENTITY_DELETED, SkipReason.ENTITY_DELETED),
                        Map.entry(Reason.DEADLINE_PASSED, SkipReason.DEADLINE_PASSED),
                        Map.entry(Reason.OPERATOR_SKIPPED, SkipReason.OPERATOR_SKIPPED),
                        Map.entry(Reason.PAUSED, SkipReason.PAUSED),
                        Map.entry(Reason.UNAPPROVED, SkipReason.UNAPPROVED),
                        Map.entry(Reason.CALENDAR, SkipReason.CALENDAR),
                        Map.entry(Reason.BLACKOUT, SkipReason.BLACKOUT),
                        Map.entry(Reason.CALENDAR_ENDED, SkipReason.CALENDAR_ENDED),
                        Map.entry(Reason.UNDELIVERED, SkipReason.UNDELIVERED),
                        Map.entry(Reason.DEFERRED, SkipReason.DEFERRED));
        assertThat(recorded.keySet()).allSatisfy(r -> assertThat(r.verdict()).isEqualTo(Verdict.SKIP));
    }
}
