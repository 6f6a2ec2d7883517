package dev.punctual.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.observability.Redactor;
import dev.punctual.observability.StructuredLog;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class OutcomeLogTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant OCCURRENCE = Instant.parse("2026-11-29T14:00:00Z");

    private final List<String> lines = new ArrayList<>();
    private final StructuredLog log = new StructuredLog(
                    lines::add,
                    Clock.fixed(OCCURRENCE.plusMillis(420), ZoneOffset.UTC),
                    "punctual",
                    Redactor.standard())
            .forInvocation("req-9", false);

    @Test
    void write_lockBusySkip_givesOneLineWithEveryListedFieldAndCountsLockBusy() throws Exception {
        OutcomeLog.write(log, outcome(Reason.LOCK_BUSY, null));

        JsonNode line = JSON.readTree(lines.get(0));
        List<String> keys = new ArrayList<>();
        line.fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsAll(OutcomeLog.FIELDS).containsAll(OutcomeLog.METRICS);
        assertThat(line.get("occurrence_local").asText()).isEqualTo("2026-11-29T09:00:00-05:00");
        assertThat(line.get("outcome").asText()).isEqualTo("SKIP");
        assertThat(line.get("LockBusy").asInt()).isEqualTo(1);
        assertThat(line.get("Skip").asInt()).isEqualTo(1);
        assertThat(line.get("Pass").asInt()).isZero();
        assertThat(line.at("/_aws/CloudWatchMetrics/0/Dimensions").toString())
                .as("stage-wide only, by default")
                .isEqualTo("[[\"stage\"]]");
        assertThat(line.at("/_aws/CloudWatchMetrics/1/Dimensions").toString())
                .isEqualTo("[[\"stage\",\"outcome\",\"reason\"]]");
        assertThat(line.get("Occurrences").asInt()).isEqualTo(1);
    }

    @Test
    void write_jobThatOptedIn_alsoPublishesItsOwnMetricsUnderStageAndJob() throws Exception {
        OutcomeLog.write(log, outcome(Reason.OK, null), true, 3);

        JsonNode line = JSON.readTree(lines.get(0));
        assertThat(line.at("/_aws/CloudWatchMetrics/0/Dimensions").toString())
                .isEqualTo("[[\"stage\"],[\"stage\",\"job\"]]");
        assertThat(EmfMetrics.of(line)).contains("Pass{job=nightly-summary, stage=dev}", "Pass{stage=dev}");
    }

    @Test
    void write_manyJobsWithoutOptIn_publishesTheSameMetricsAsOneJob() throws Exception {
        Set<String> oneJob = new TreeSet<>();
        Set<String> manyJobs = new TreeSet<>();
        for (int i = 0; i < 50; i++) {
            for (Reason reason : List.of(Reason.OK, Reason.LOCK_BUSY, Reason.JOB_ERROR)) {
                OccurrenceOutcome o = withJob(outcome(reason, null), "job-" + i);
                lines.clear();
                OutcomeLog.write(log, o);
                Set<String> metrics = EmfMetrics.of(JSON.readTree(lines.get(0)));
                manyJobs.addAll(metrics);
                if (i == 0) {
                    oneJob.addAll(metrics);
                }
            }
        }

        assertThat(manyJobs).isEqualTo(oneJob).noneMatch(m -> m.contains("job="));
        assertThat(manyJobs)
                .as("8 stage metrics, FinalFail and one count per outcome and reason")
                .hasSize(OutcomeLog.METRICS.size() + 1 + 3);
    }

    @Test
    void write_scheduledFailureWithAttemptsLeft_countsAFailedAttempt_butNoFinalFailure() throws Exception {
        OutcomeLog.write(log, outcome(Reason.JOB_ERROR, "boom"), false, 3);

        JsonNode line = JSON.readTree(lines.get(0));
        assertThat(line.get("Fail").asInt()).isEqualTo(1);
        assertThat(line.get(OutcomeLog.FINAL_FAIL).asInt()).isZero();
        assertThat(line.at("/_aws/CloudWatchMetrics/2/Dimensions").toString())
                .as("stage-wide only")
                .isEqualTo("[[\"stage\"]]");
        assertThat(line.at("/_aws/CloudWatchMetrics/2/Metrics/0/Name").asText()).isEqualTo(OutcomeLog.FINAL_FAIL);
    }

    @Test
    void write_finalFailures_lastAttemptExhaustedManualOrReplay_countAFinalFailure_evenForAnOptedInJob()
            throws Exception {
        List<OccurrenceOutcome> finals = List.of(
                withAttempt(outcome(Reason.JOB_ERROR, "boom"), 3),
                withAttempt(outcome(Reason.FENCED, null), 3),
                withAttempt(outcome(Reason.LEASE_ENDED, null), 3),
                outcome(Reason.ATTEMPTS_EXHAUSTED, "boom"),
                withTrigger(outcome(Reason.JOB_ERROR, "boom"), "MANUAL"),
                withTrigger(outcome(Reason.FENCED, null), "REPLAY"));
        for (OccurrenceOutcome o : finals) {
            lines.clear();
            OutcomeLog.write(log, o, true, 3);

            JsonNode line = JSON.readTree(lines.get(0));
            assertThat(line.get(OutcomeLog.FINAL_FAIL).asInt()).as("%s", o).isEqualTo(1);
            assertThat(EmfMetrics.of(line))
                    .contains("FinalFail{stage=dev}")
                    .noneMatch(m -> m.startsWith("FinalFail{job="));
        }
    }

    @Test
    void write_passesAndSkips_areNeverFinalFailures() throws Exception {
        for (Reason reason : Reason.values()) {
            if (reason.verdict() == Verdict.FAIL) {
                continue;
            }
            lines.clear();
            OutcomeLog.write(log, withTrigger(outcome(reason, null), "MANUAL"), false, 1);

            assertThat(JSON.readTree(lines.get(0)).get(OutcomeLog.FINAL_FAIL).asInt())
                    .as("%s", reason)
                    .isZero();
        }
    }

    @Test
    void scheduledTrigger_isTheLedgersName() {
        assertThat(OccurrenceOutcome.SCHEDULED).isEqualTo(dev.punctual.ledger.Trigger.SCHEDULED.name());
    }

    private static OccurrenceOutcome withAttempt(OccurrenceOutcome o, int attempt) {
        return o.toBuilder().attempt(attempt).build();
    }

    private static OccurrenceOutcome withTrigger(OccurrenceOutcome o, String trigger) {
        return OccurrenceOutcome.of(o.stage(), o.job(), o.occurrence(), o.occurrenceLocal(), trigger, o.reason())
                .attempt(o.attempt())
                .build();
    }

    @Test
    void write_failureWithSecretsInResultAndError_isAnErrorLineWithoutTheSecrets() {
        OutcomeLog.write(log, outcome(Reason.JOB_ERROR, "SQL login failed: password=tiger-tiger"));

        assertThat(lines.get(0))
                .contains("\"level\":\"ERROR\"", "\"Fail\":1")
                .doesNotContain("tiger-tiger", "sk_live_123");
    }

    @Test
    void write_skipWithADetail_carriesTheDetailRedacted_andNoError() throws Exception {
        OccurrenceOutcome skip = outcome(Reason.MAINTENANCE, null);
        OutcomeLog.write(
                log,
                skip.toBuilder()
                        .error(null)
                        .detail("restoring from backup, password=tiger-tiger")
                        .build());

        JsonNode line = JSON.readTree(lines.get(0));
        assertThat(line.get("detail").asText())
                .startsWith("restoring from backup")
                .doesNotContain("tiger-tiger");
        assertThat(line.get("error").isNull()).isTrue();
    }

    private static OccurrenceOutcome withJob(OccurrenceOutcome o, String job) {
        return OccurrenceOutcome.of(o.stage(), job, o.occurrence(), o.occurrenceLocal(), o.trigger(), o.reason())
                .attempt(o.attempt())
                .fence(o.fence())
                .latenessMs(o.latenessMs())
                .result(o.result())
                .error(o.error())
                .build();
    }

    private static OccurrenceOutcome outcome(Reason reason, String error) {
        return OccurrenceOutcome.of(
                        "dev",
                        "nightly-summary",
                        OCCURRENCE,
                        OCCURRENCE.atZone(ZoneId.of("America/New_York")),
                        "SCHEDULED",
                        reason)
                .attempt(1)
                .fence(7L)
                .latenessMs(420)
                .result(Map.of("rows", 3, "stripeApiKey", "sk_live_123"))
                .error(error)
                .build();
    }
}
