package dev.punctual.cli.verify;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DELIVERING;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The activation checks' judgements on plain values (the stand-in test drives them end to end). */
class ActivationChecksTest {

    private static RunOutcome outcome(String job, String outcome, String reason) {
        return new RunOutcome(job, outcome, reason, "2026-11-30T14:00:00Z", "");
    }

    @Test
    void manualRun_failedRun_failsSayingWhereToLook() {
        CheckResult r = new ManualRunCheck(outcome(DAILY, "FAIL", "JOB_ERROR")).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).isEqualTo("FAIL JOB_ERROR at 2026-11-30T14:00:00Z");
        assertThat(r.action()).contains("failures");
    }

    @Test
    void repeat_ranAgain_failsSayingStop() {
        CheckResult r = new RepeatRunCheck(outcome(DAILY, "PASS", "OK")).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).startsWith("stop");
    }

    private static final String TIMELINE = "punctual/dev/job-timeline";

    private static CheckResult outcomeLogged(OutcomeLoggedCheck.Search search) {
        return new OutcomeLoggedCheck("dev", outcome(DAILY, "PASS", "OK"), TIMELINE, search, Duration.ofSeconds(60))
                .result();
    }

    @Test
    void outcomeLine_foundByTheSavedQuery_passesNamingTheQueryAndTheRow() {
        CheckResult r = outcomeLogged(new OutcomeLoggedCheck.Search.Found(Map.of(
                "@timestamp", "2026-11-30T14:00:01.000Z", "outcome", "PASS", "reason", "OK", "trigger", "MANUAL")));

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.checked())
                .isEqualTo("the saved query punctual/dev/job-timeline finds the outcome line of " + DAILY + " at"
                        + " 2026-11-30T14:00:00Z (trigger MANUAL)");
        assertThat(r.seen()).isEqualTo("1 row: PASS OK, logged at 2026-11-30T14:00:01.000Z (verify waits up to 60 s)");
    }

    @Test
    void outcomeLine_notFound_failsNamingTheWaitAndTheQuery() {
        CheckResult r = outcomeLogged(new OutcomeLoggedCheck.Search.NotFound(13));

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).isEqualTo("no row within 60 s (13 run(s) of the query)");
        assertThat(r.action()).contains("run " + TIMELINE + " for " + DAILY, "--log-wait");
    }

    @Test
    void outcomeLine_savedQueryMissing_failsNamingItAndSayingRedeploy() {
        CheckResult r = outcomeLogged(new OutcomeLoggedCheck.Search.QueryMissing("the stage's stack has no output"));

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen())
                .isEqualTo("saved query punctual/dev/job-timeline is missing: the stage's stack has no output");
        assertThat(r.action()).startsWith("redeploy the stage (cdk deploy -c stage=dev)");
    }

    @Test
    void outcomeLine_queryEndedFailed_failsShowingWhy() {
        CheckResult r =
                outcomeLogged(new OutcomeLoggedCheck.Search.QueryFailed("the Logs Insights query q ended FAILED"));

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).isEqualTo("the query did not complete: the Logs Insights query q ended FAILED");
        assertThat(r.action()).contains("run " + TIMELINE + " in Logs Insights");
    }

    @Test
    void destructive_ranWhereRefused_failsSayingStop() {
        CheckResult r = new DestructiveRefusedCheck("dev", false, List.of(outcome(DESTRUCTIVE, "PASS", "OK"))).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).startsWith("stop").contains("schedules=off");
    }

    @Test
    void destructive_stageAllowsThem_passesWithoutRunningAny() {
        CheckResult r = new DestructiveRefusedCheck("prod", true, List.of()).result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.seen()).contains("verify runs none");
    }

    @Test
    void delivery_runPassedWithSendsSuppressed_passes() {
        CheckResult r = new DeliverySuppressedCheck(
                        "dev",
                        false,
                        List.of(outcome(DELIVERING, "PASS", "OK")),
                        Map.of(DELIVERING, 2),
                        Map.of(DELIVERING, 0))
                .result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.seen()).contains("2 suppressed, 0 sent");
    }

    @Test
    void delivery_aMessageSentWhereDeliveryIsOff_failsSayingStop() {
        CheckResult r = new DeliverySuppressedCheck(
                        "dev", false, List.of(outcome(DELIVERING, "PASS", "OK")), Map.of(), Map.of(DELIVERING, 1))
                .result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).startsWith("stop");
    }

    @Test
    void maintenance_runNotSkippedUnderTheHold_fails() {
        CheckResult r = new MaintenanceCheck(
                        List.of(),
                        List.of(),
                        Optional.of(outcome(DAILY, "PASS", "OK")),
                        Optional.of(outcome(DAILY, "SKIP", "ALREADY_DONE")),
                        true)
                .result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).startsWith("stop");
    }

    @Test
    void maintenance_holdNotReleased_failsSayingHowToLiftIt() {
        CheckResult r = new MaintenanceCheck(List.of(), List.of(), Optional.empty(), Optional.empty(), false).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.action()).contains("maintenance off --by punctual-verify");
    }

    @Test
    void logSecrets_bearerTokenInALine_failsWithoutShowingIt() {
        String token = "Bearer " + "abcdefghijklmnopqrstuvwxyz012345";
        StageLogs.Line line = new StageLogs.Line(
                "g", Instant.parse("2026-11-30T16:00:00Z"), "{\"message\":\"call\",\"header\":\"" + token + "\"}");

        CheckResult r = new LogSecretsCheck(List.of(line), Duration.ofHours(1)).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).contains("g at 2026-11-30T16:00:00Z").doesNotContain("abcdefghijklmnop");
    }

    @Test
    void logSecrets_personalDataInALine_failsAsPersonalData_withoutShowingIt_andWithoutSayingRotate() {
        String email = "bob" + "@example.com";
        String phone = "+82 10-" + "1234-5678";
        StageLogs.Line line = new StageLogs.Line(
                "g",
                Instant.parse("2026-11-30T16:00:00Z"),
                "{\"message\":\"reminder sent\",\"to\":\"" + email + "\",\"sms\":\"" + phone + "\"}");

        CheckResult r = new LogSecretsCheck(List.of(line), Duration.ofHours(1)).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen())
                .contains("1 line(s) hold personal data", "[email]", "[phone]")
                .doesNotContain(email, "1234-5678");
        assertThat(r.action()).startsWith("personal data reached the logs").doesNotContain("rotate");
    }

    @Test
    void logSecrets_aSecretAndPersonalData_sayBothWhatToDo() {
        StageLogs.Line secret = new StageLogs.Line("g", Instant.parse("2026-11-30T16:00:00Z"), "password=hunter2x");
        StageLogs.Line card =
                new StageLogs.Line("g", Instant.parse("2026-11-30T16:00:01Z"), "card 4111 1111 1111 1111");

        CheckResult r = new LogSecretsCheck(List.of(secret, card), Duration.ofHours(1)).result();

        assertThat(r.seen())
                .contains("2 line(s) hold a secret or personal data")
                .doesNotContain("hunter2x", "4111");
        assertThat(r.action()).contains("rotate it now", "personal data reached the logs");
    }

    /** Lambda's own lines carry ids, digests, durations and ARNs: none of it is a secret or personal data. */
    @Test
    void logSecrets_lambdaPlatformLinesAndAnAlreadyRedactedLine_pass() {
        List<StageLogs.Line> lines = java.util.stream.Stream.of(
                        "INIT_START Runtime Version: java:21.v20 Runtime Version ARN: arn:aws:lambda:us-east-1::runtime:"
                                + "0cdcfbdefbc5e7d3343f73c2e2dd3cba17d61dea0686b404502a0c9ce83931b9",
                        "START RequestId: 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d Version: 7",
                        "END RequestId: 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
                        "REPORT RequestId: 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d Duration: 1234.56 ms Billed Duration:"
                                + " 1235 ms Memory Size: 512 MB Max Memory Used: 150 MB Restore Duration: 310.22 ms",
                        "{\"_aws\":{\"Timestamp\":1764518400000},\"occurrence\":\"2026-11-30T14:00:00Z\","
                                + "\"lateness_ms\":129602000,\"fence\":4,\"error\":\"no mailbox [email]\"}")
                .map(m -> new StageLogs.Line("g", Instant.parse("2026-11-30T16:00:00Z"), m))
                .toList();

        assertThat(new LogSecretsCheck(lines, Duration.ofHours(1)).result().status())
                .isEqualTo(CheckStatus.PASS);
    }

    @Test
    void logSecrets_ordinaryOutcomeLine_passes() {
        StageLogs.Line line = new StageLogs.Line(
                "g",
                Instant.parse("2026-11-30T16:00:00Z"),
                "{\"message\":\"occurrence outcome\",\"job\":\"" + DAILY
                        + "\",\"outcome\":\"PASS\",\"result\":{\"pass\":3}}");

        assertThat(new LogSecretsCheck(List.of(line), Duration.ofHours(1))
                        .result()
                        .status())
                .isEqualTo(CheckStatus.PASS);
    }
}
