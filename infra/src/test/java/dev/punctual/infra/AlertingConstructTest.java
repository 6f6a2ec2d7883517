package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;

/**
 * The Alerting construct on a bare stack: an encrypted topic CloudWatch and EventBridge may publish to,
 * and stage-wide alarms that name no job and notify that topic (AlertingTest checks a whole stage's set).
 */
class AlertingConstructTest {

    @Test
    void stageAlarms_onABareStack_readStageWideMetricsOnly_andNotifyTheEncryptedTopic() {
        Stack stack = new Stack(new App(), "Bare");
        Alerting alerting = new Alerting(stack, "Alerting", Stages.named("dev"));
        alerting.failures();
        alerting.missed();
        alerting.overdue();
        alerting.watchdogSilent();

        Template template = Template.fromStack(stack);
        Map<String, Map<String, Object>> alarms = Templates.properties(template, "AWS::CloudWatch::Alarm");

        template.resourceCountIs("AWS::SNS::Topic", 1);
        template.resourceCountIs("AWS::KMS::Key", 1);
        assertThat(Templates.properties(template, "AWS::SNS::Topic").toString()).contains("KmsMasterKeyId");
        assertThat(Templates.properties(template, "AWS::KMS::Key").toString())
                .contains("cloudwatch.amazonaws.com", "events.amazonaws.com");
        assertThat(alarms).hasSize(4);
        assertThat(alarms.values()).allSatisfy(alarm -> {
            assertThat(alarm.toString()).contains("Name=stage, Value=dev").doesNotContain("Name=job");
            assertThat(alarm.get("AlarmActions").toString()).contains(Templates.logicalId(alerting.topic()));
        });
    }
}
