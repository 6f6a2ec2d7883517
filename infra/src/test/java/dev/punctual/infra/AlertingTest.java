package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class AlertingTest {

    private static Template dev;

    @BeforeAll
    static void synth() {
        dev = Template.fromStack(Synth.stage("dev"));
    }

    @Test
    void failuresAlarm_watchesTheStagesFinalFailMetric_andNotifiesTheTopic() {
        dev.hasResourceProperties(
                "AWS::CloudWatch::Alarm",
                Map.of(
                        "Namespace",
                        "Punctual",
                        "MetricName",
                        "FinalFail",
                        "Dimensions",
                        List.of(Map.of("Name", "stage", "Value", "dev")),
                        "Statistic",
                        "Sum",
                        "Threshold",
                        1,
                        "AlarmActions",
                        List.of(Map.of("Ref", Match.stringLikeRegexp("AlertingTopic.*")))));
    }

    @Test
    void deadLetterAlarms_coverTheSchedulerQueueAndEveryPoolsOnFailureQueue() {
        Map<String, Map<String, Object>> alarms = dev.findResources(
                "AWS::CloudWatch::Alarm",
                Map.of("Properties", Map.of("MetricName", "ApproximateNumberOfMessagesVisible")));

        assertThat(alarms.values().toString())
                .contains(
                        "SchedulerDeadLetters",
                        "PooldefaultAsyncFailures",
                        "PoolmaintenanceAsyncFailures",
                        "LifecycleAlertsDeadLetters",
                        "DeadLettersUnreadable");
        // The scheduler's, the alerts' and the dead-letter consumer's kept queue (decision 0044), and each pool's.
        assertThat(alarms).hasSize(3 + Synth.CATALOG.pools().size());
    }

    @Test
    void missedAlarm_watchesTheStagesMissedMetric_andNotifiesTheTopic() {
        dev.hasResourceProperties(
                "AWS::CloudWatch::Alarm",
                Map.of(
                        "MetricName",
                        "Missed",
                        "Dimensions",
                        List.of(Map.of("Name", "stage", "Value", "dev")),
                        "Threshold",
                        1,
                        "ComparisonOperator",
                        "GreaterThanOrEqualToThreshold",
                        "AlarmActions",
                        List.of(Map.of("Ref", Match.stringLikeRegexp("AlertingTopic.*")))));
    }

    @Test
    void overdueAlarm_watchesTheWatchdogsStageWideOverdueMetric() {
        dev.hasResourceProperties(
                "AWS::CloudWatch::Alarm",
                Map.of(
                        "MetricName",
                        "Overdue",
                        "Dimensions",
                        List.of(Map.of("Name", "stage", "Value", "dev")),
                        "ComparisonOperator",
                        "GreaterThanOrEqualToThreshold",
                        "AlarmActions",
                        List.of(Map.of("Ref", Match.stringLikeRegexp("AlertingTopic.*")))));
    }

    @Test
    void watchdogSilentAlarm_firesAfterTwoHoursWithoutAHeartbeat_missingDataBreaching() {
        dev.hasResourceProperties(
                "AWS::CloudWatch::Alarm",
                Map.of(
                        "MetricName",
                        "WatchdogRuns",
                        "Period",
                        3600,
                        "EvaluationPeriods",
                        2,
                        "DatapointsToAlarm",
                        2,
                        "ComparisonOperator",
                        "LessThanThreshold",
                        "TreatMissingData",
                        "breaching",
                        "ActionsEnabled",
                        true));
    }

    @Test
    void stageAlarms_areAFixedSet_noneNamesAJob() {
        Map<String, Map<String, Object>> alarms = dev.findResources("AWS::CloudWatch::Alarm");

        // Failures, Missed, Overdue, WatchdogSilent, Undelivered (decision 0044), Unapproved (the fixture's
        // destructive job needs an approval where it may run, decision 0041); three queues and each pool's.
        assertThat(alarms).hasSize(6 + 3 + Synth.CATALOG.pools().size());
        assertThat(alarms.values().toString()).doesNotContain("Name=job");
    }

    @Test
    void contributorInsights_rankJobsByFailuresLatenessAndMisses_onTheDashboard() {
        Map<String, Map<String, Object>> rules = Templates.properties(dev, "AWS::CloudWatch::InsightRule");

        assertThat(rules.values())
                .extracting(r -> r.get("RuleName"))
                .containsExactlyInAnyOrder(
                        "punctual-dev-top-failing-jobs", "punctual-dev-top-late-jobs", "punctual-dev-top-missed-jobs");
        assertThat(rules.values().toString()).contains("$.job", "LogFormat", "occurrence outcome", "FAIL");
        assertThat(dev.findResources("AWS::CloudWatch::Dashboard").toString())
                .contains("INSIGHT_RULE_METRIC('punctual-dev-top-failing-jobs'");
    }

    @Test
    void topic_isEncryptedAndRefusesPlainHttp() {
        assertThat(dev.findResources("AWS::SNS::Topic").toString())
                .contains("KmsMasterKeyId=")
                .as("the AWS-managed SNS key cannot be used by CloudWatch alarms")
                .doesNotContain("alias/aws/sns");
        assertThat(dev.findResources("AWS::KMS::Key").toString())
                .contains("EnableKeyRotation=true", "cloudwatch.amazonaws.com", "kms:GenerateDataKey*");
        assertThat(dev.findResources("AWS::SNS::TopicPolicy").toString())
                .contains("cloudwatch.amazonaws.com", "sns:Publish", "aws:SourceAccount");
        assertThat(dev.findResources("AWS::SNS::TopicPolicy").toString()).contains("aws:SecureTransport");
    }

    @Test
    void savedQueries_andDashboard_existForTheStage() {
        dev.resourceCountIs("AWS::Logs::QueryDefinition", SavedQueries.ALL.size());
        dev.hasResourceProperties("AWS::Logs::QueryDefinition", Map.of("Name", "punctual/dev/failures"));
        dev.hasResourceProperties(
                "AWS::CloudWatch::Dashboard",
                Map.of(
                        "DashboardName",
                        Map.of("Fn::Join", List.of("", List.of("punctual-dev-", Map.of("Ref", "AWS::Region"))))));
    }
}
