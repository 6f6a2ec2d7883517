package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.stage.StageOutputs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * How the lifecycle rule's notices reach the alarm topic, as synthesised for the dev stage: EventBridge
 * may publish to the topic (and use its key) only for this stage's rule, in this account; a notice that
 * cannot be delivered goes to an encrypted dead-letter queue that only that rule may send to, and whose
 * depth is alarmed like the stage's other dead-letter queues.
 */
class AlertDeliveryTest {

    private static StageStack stage;
    private static Template template;
    private static String ruleId;
    private static Map<String, Object> rule;

    @BeforeAll
    static void synth() {
        stage = Synth.stage("dev");
        template = Template.fromStack(stage);
        Map.Entry<String, Map<String, Object>> found =
                Templates.properties(template, "AWS::Events::Rule").entrySet().stream()
                        .filter(e -> e.getValue().toString().contains("needs_attention"))
                        .findFirst()
                        .orElseThrow();
        ruleId = found.getKey();
        rule = found.getValue();
    }

    @Test
    void topicPolicy_letsEventBridgePublishOnlyForThisStagesRule_inThisAccount() {
        List<Map<String, Object>> grants =
                statementsFor(Templates.properties(template, "AWS::SNS::TopicPolicy"), "events.amazonaws.com", "Allow");

        assertThat(grants).isNotEmpty().allSatisfy(AlertDeliveryTest::conditionedOnTheRule);
    }

    @Test
    void topicKey_letsEventBridgeEncryptOnlyForThisStagesRule_inThisAccount() {
        List<Map<String, Object>> grants = statementsFor(
                keyPolicies(Templates.properties(template, "AWS::KMS::Key")), "events.amazonaws.com", "Allow");

        assertThat(grants).isNotEmpty().allSatisfy(AlertDeliveryTest::conditionedOnTheRule);
    }

    @Test
    @SuppressWarnings("unchecked")
    void rulesTarget_hasAnEncryptedDeadLetterQueue_thatOnlyTheRuleMaySendTo() {
        Map<String, Object> target = ((List<Map<String, Object>>) rule.get("Targets")).get(0);
        Map<String, Object> deadLetter = (Map<String, Object>) target.get("DeadLetterConfig");
        assertThat(deadLetter).as("the notice's target has a dead-letter queue").isNotNull();
        String queueId =
                (String) ((List<Object>) ((Map<String, Object>) deadLetter.get("Arn")).get("Fn::GetAtt")).get(0);

        Map<String, Object> queue =
                Templates.properties(template, "AWS::SQS::Queue").get(queueId);
        assertThat(queue).containsEntry("SqsManagedSseEnabled", true);
        Map<String, Map<String, Object>> policies = Templates.properties(template, "AWS::SQS::QueuePolicy");
        Map<String, Map<String, Object>> ofQueue = new java.util.LinkedHashMap<>();
        policies.forEach((id, p) -> {
            if (p.get("Queues").toString().contains(queueId)) {
                ofQueue.put(id, p);
            }
        });
        List<Map<String, Object>> allows = statementsFor(ofQueue, null, "Allow");
        assertThat(allows).singleElement().satisfies(s -> {
            assertThat(s.get("Principal")).isEqualTo(Map.of("Service", "events.amazonaws.com"));
            assertThat(s.get("Action")).isEqualTo("sqs:SendMessage");
            assertThat(s.get("Condition").toString()).contains("aws:SourceArn", ruleId);
        });
    }

    @Test
    void noticeDeadLetterQueue_isAlarmedLikeTheOtherDeadLetterQueues_andOnTheDashboard() {
        String queueId = deadLetterQueueId();
        Map<String, Map<String, Object>> depthAlarms = Templates.properties(template, "AWS::CloudWatch::Alarm");
        assertThat(depthAlarms.values())
                .filteredOn(a -> "ApproximateNumberOfMessagesVisible".equals(a.get("MetricName")))
                .filteredOn(a -> a.get("Dimensions").toString().contains(queueId))
                .singleElement()
                .satisfies(a -> {
                    assertThat(a).containsEntry("Threshold", 1);
                    assertThat(a.get("AlarmActions").toString()).contains("AlertingTopic");
                });
        assertThat(template.findResources("AWS::CloudWatch::Dashboard").toString())
                .contains(queueId);
    }

    @Test
    void noticeDeadLetterQueue_isAStackOutput_forTheOperatorsTools() {
        Map<String, Object> output =
                template.findOutputs(StageOutputs.ALERT_DEAD_LETTERS).get(StageOutputs.ALERT_DEAD_LETTERS);

        assertThat(output).isNotNull().doesNotContainKey("Export");
        assertThat(output.get("Value")).isEqualTo(Templates.ref(deadLetterQueueId()));
        assertThat(Templates.logicalId(stage.lifecycleAlerts().deadLetters())).isEqualTo(deadLetterQueueId());
    }

    @SuppressWarnings("unchecked")
    private static String deadLetterQueueId() {
        Map<String, Object> target = ((List<Map<String, Object>>) rule.get("Targets")).get(0);
        Map<String, Object> arn =
                (Map<String, Object>) ((Map<String, Object>) target.get("DeadLetterConfig")).get("Arn");
        return (String) ((List<Object>) arn.get("Fn::GetAtt")).get(0);
    }

    /** ArnEquals aws:SourceArn naming the stage's rule, and StringEquals aws:SourceAccount. */
    @SuppressWarnings("unchecked")
    private static void conditionedOnTheRule(Map<String, Object> statement) {
        Map<String, Object> condition = (Map<String, Object>) statement.get("Condition");
        assertThat(condition).as("condition of %s", statement).isNotNull();
        assertThat(condition.get("ArnEquals")).as("ArnEquals of %s", statement).isNotNull();
        String sourceArn = String.valueOf(((Map<String, Object>) condition.get("ArnEquals")).get("aws:SourceArn"));
        assertThat(sourceArn.contains(ruleId) || sourceArn.contains(":rule/punctual-dev/punctual-dev-needs-attention"))
                .as("aws:SourceArn %s names the rule %s", sourceArn, ruleId)
                .isTrue();
        assertThat(String.valueOf(condition.get("StringEquals"))).contains("aws:SourceAccount");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> keyPolicies(Map<String, Map<String, Object>> keys) {
        Map<String, Map<String, Object>> policies = new java.util.LinkedHashMap<>();
        keys.forEach((id, key) -> policies.put(id, Map.of("PolicyDocument", key.get("KeyPolicy"))));
        return policies;
    }

    /** The statements of these policies with the given effect and, if not null, that service principal. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> statementsFor(
            Map<String, Map<String, Object>> policies, String service, String effect) {
        return policies.values().stream()
                .flatMap(p -> ((List<Map<String, Object>>)
                                ((Map<String, Object>) p.get("PolicyDocument")).get("Statement"))
                        .stream())
                .filter(s -> effect.equals(s.get("Effect")))
                .filter(s ->
                        service == null || String.valueOf(s.get("Principal")).contains(service))
                .toList();
    }
}
