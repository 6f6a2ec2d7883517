package dev.punctual.cli.verify;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.infra.RetrySettings;
import dev.punctual.infra.StageStack;
import dev.punctual.job.JobDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScheduleGroupCheckTest {

    private static final String DLQ = "arn:aws:sqs:us-east-1:123456789012:Punctual-dev-SchedulerDeadLetters1-X";
    private static final Map<String, String> FUNCTIONS = Map.of("default", "fn-default");
    private static final String ALIAS = "arn:aws:lambda:us-east-1:123456789012:function:fn-default:live";

    private static final JobDefinition JOB = JobDefinition.builder(DAILY)
            .schedule("0 9 * * *", "America/New_York")
            .job(s -> c -> null)
            .build();

    private static final ExpectedSchedule EXPECTED = ExpectedSchedule.of(JOB, RetrySettings.DEFAULT, true);

    /** The schedule exactly as deployed: built from the same pieces the CDK app uses. */
    private static DeployedSchedule deployed() {
        return new DeployedSchedule(
                DAILY,
                JOB.schedule().deployment().expression(),
                "America/New_York",
                "ENABLED",
                RetrySettings.DEFAULT.schedulerRetryAttempts(),
                (int) RetrySettings.DEFAULT.schedulerMaxEventAge().toSeconds(),
                DLQ,
                "{\"kind\":\"scheduled\",\"job\":\"" + DAILY
                        + "\",\"scheduled_time\":\"<aws.scheduler.scheduled-time>\","
                        + "\"execution_id\":\"<aws.scheduler.execution-id>\",\"attempt_number\":\"<aws.scheduler.attempt-number>\","
                        + "\"schedule_arn\":\"<aws.scheduler.schedule-arn>\"}",
                ALIAS);
    }

    private static CheckResult check(List<DeployedSchedule> found, List<String> elsewhere) {
        return new ScheduleGroupCheck("punctual-dev", List.of(EXPECTED), found, elsewhere, FUNCTIONS, Optional.of(DLQ))
                .result();
    }

    private static DeployedSchedule with(java.util.function.UnaryOperator<List<Object>> change) {
        DeployedSchedule d = deployed();
        List<Object> f = new ArrayList<>(java.util.Arrays.asList(
                d.name(),
                d.expression(),
                d.zone(),
                d.state(),
                d.retryAttempts(),
                d.maxEventAgeSeconds(),
                d.deadLetterArn(),
                d.input(),
                d.targetArn()));
        f = change.apply(f);
        return new DeployedSchedule(
                (String) f.get(0),
                (String) f.get(1),
                (String) f.get(2),
                (String) f.get(3),
                (Integer) f.get(4),
                (Integer) f.get(5),
                (String) f.get(6),
                (String) f.get(7),
                (String) f.get(8));
    }

    @Test
    void exactlyTheCatalogsSchedule_passes() {
        assertThat(check(List.of(deployed()), List.of()).status()).isEqualTo(CheckStatus.PASS);
    }

    @Test
    void expectedExpression_isTheDeploymentOfTheJobsSchedule() {
        assertThat(EXPECTED.expression()).isEqualTo("cron(0 9 * * ? *)");
        assertThat(EXPECTED.input()).containsEntry("job", DAILY).containsEntry("kind", "scheduled");
    }

    @Test
    void unknownScheduleInTheGroup_failsLegacyEntryFoundStop() {
        DeployedSchedule legacy = with(f -> {
            f.set(0, "nightly-legacy");
            return f;
        });

        CheckResult r = check(List.of(deployed(), legacy), List.of());

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).isEqualTo("legacy entry found: punctual-dev/nightly-legacy");
        assertThat(r.action()).startsWith("stop:");
    }

    @Test
    void scheduleElsewhereCallingTheFunction_failsToo() {
        CheckResult r = check(List.of(deployed()), List.of("default/by-hand"));

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).contains("default/by-hand");
    }

    @Test
    void missingSchedule_failsNamingIt() {
        CheckResult r = check(List.of(), List.of());

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).isEqualTo(DAILY + ": missing");
    }

    @Test
    void wrongZoneDisabledNoRetryPolicyNoDlq_eachNamed() {
        DeployedSchedule drifted = with(f -> {
            f.set(2, "UTC");
            f.set(3, "DISABLED");
            f.set(4, null);
            f.set(5, null);
            f.set(6, null);
            return f;
        });

        CheckResult r = check(List.of(drifted), List.of());

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen())
                .contains(DAILY + ": zone UTC (catalog: America/New_York)")
                .contains("state DISABLED (catalog: ENABLED)")
                .contains("retry attempts null (catalog: 3)")
                .contains("max event age (s) null (catalog: 3600)")
                .contains("dead-letter queue null");
        assertThat(r.action()).contains("cdk deploy");
    }

    @Test
    void targetOnLatestInsteadOfTheAlias_fails() {
        DeployedSchedule latest = with(f -> {
            f.set(8, "arn:aws:lambda:us-east-1:123456789012:function:fn-default");
            return f;
        });

        assertThat(check(List.of(latest), List.of()).seen())
                .contains("expected pool default's function fn-default:live");
    }

    @Test
    void keepWarmPingOfAKnownPool_isManaged() {
        DeployedSchedule ping = new DeployedSchedule(
                StageStack.KEEP_WARM_PREFIX + "default",
                StageStack.KEEP_WARM_EXPRESSION,
                "UTC",
                "ENABLED",
                3,
                3600,
                DLQ,
                "{\"kind\":\"ping\"}",
                ALIAS);

        assertThat(check(List.of(deployed(), ping), List.of()).status()).isEqualTo(CheckStatus.PASS);
    }
}
