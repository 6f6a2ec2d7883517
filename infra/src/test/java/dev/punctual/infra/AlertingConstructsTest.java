package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.events.LifecycleEvent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.events.EventBus;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.sns.Topic;

/**
 * The alerting constructs each on a bare stack (the CDK workshop's style): what one construct puts in a
 * template, apart from the stage around it, which AlertingTest and LifecycleAlertsTest check whole.
 */
class AlertingConstructsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void contributorInsights_onTwoLogGroups_isOneEnabledRulePerQuestion_keyedByJob_overBothGroups() throws Exception {
        Stack stack = new Stack(new App(), "Bare");
        List<ILogGroup> groups = List.of(new LogGroup(stack, "A"), new LogGroup(stack, "B"));
        new ContributorInsights(stack, "Insights", "qa", groups);

        Map<String, Map<String, Object>> rules =
                Templates.properties(Template.fromStack(stack), "AWS::CloudWatch::InsightRule");

        assertThat(rules.values())
                .extracting(p -> p.get("RuleName"))
                .containsExactlyInAnyOrder(
                        "punctual-qa-top-failing-jobs", "punctual-qa-top-late-jobs", "punctual-qa-top-missed-jobs");
        for (Map<String, Object> rule : rules.values()) {
            assertThat(rule).containsEntry("RuleState", "ENABLED");
            JsonNode body = JSON.readTree(joined(rule.get("RuleBody")));
            assertThat(body.path("Contribution").path("Keys").toString()).isEqualTo("[\"$.job\"]");
            assertThat(body.path("LogFormat").asText()).isEqualTo("JSON");
            assertThat(body.path("LogGroupNames").toString())
                    .isEqualTo("[\"" + Templates.logicalId(groups.get(0)) + "\",\"" + Templates.logicalId(groups.get(1))
                            + "\"]");
        }
    }

    /** A rule body the template holds as {@code Fn::Join}, with each {@code Ref} written as the id it names. */
    @SuppressWarnings("unchecked")
    private static String joined(Object fnJoin) {
        List<Object> join = (List<Object>) ((Map<String, Object>) fnJoin).get("Fn::Join");
        StringBuilder text = new StringBuilder();
        for (Object part : (List<Object>) join.get(1)) {
            text.append(part instanceof Map<?, ?> ref ? ref.get("Ref") : part);
        }
        return text.toString();
    }

    @Test
    void lifecycleAlerts_onABareBus_matchesOnlyThisStagesEventsThatNeedAttention_andSendsToTheTopic() {
        Stack stack = new Stack(new App(), "Bare");
        EventBus bus = new EventBus(stack, "Bus");
        Topic topic = new Topic(stack, "Topic");
        new LifecycleAlerts(stack, "Alerts", "qa", bus, topic);

        Template template = Template.fromStack(stack);

        template.resourceCountIs("AWS::Events::Rule", 1);
        template.hasResourceProperties(
                "AWS::Events::Rule",
                Map.of(
                        "EventPattern",
                        Map.of(
                                "source", List.of(LifecycleEvent.SOURCE),
                                "detail-type", LifecycleAlerts.DETAIL_TYPES,
                                "detail",
                                        Map.of(
                                                "stage",
                                                List.of("qa"),
                                                LifecycleEvent.NEEDS_ATTENTION,
                                                List.of(true)))));
        Map<String, Object> rule = Templates.properties(template, "AWS::Events::Rule")
                .values()
                .iterator()
                .next();
        assertThat(rule.get("Targets").toString())
                .contains(Templates.logicalId(topic))
                .contains("punctual/qa/job-timeline");
    }
}
