package dev.punctual.infra;

import dev.punctual.events.LifecycleEvent;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.interfaces.events.IRuleRef;
import software.amazon.awscdk.services.events.CfnRule;
import software.amazon.awscdk.services.events.EventField;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.IEventBus;
import software.amazon.awscdk.services.events.IRuleTarget;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.RuleTargetConfig;
import software.amazon.awscdk.services.events.RuleTargetInput;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sqs.IQueue;
import software.amazon.awscdk.services.sqs.Queue;
import software.constructs.Construct;

/**
 * One EventBridge rule on the stage's lifecycle bus that sends the events someone must act on (a run
 * failed after its last attempt, occurrences missed, an occurrence overdue) to the stage's topic, as a
 * sentence naming the job: one rule for the whole catalog instead of an alarm per job. Only this rule
 * may publish to the topic (and use its key), and a notice it cannot deliver waits in its own encrypted
 * dead-letter queue, whose depth the stage alarms on ({@code AlertDeadLetters}).
 */
public final class LifecycleAlerts extends Construct {

    /** The detail types the rule matches, among those only the ones whose detail needs attention. */
    public static final List<String> DETAIL_TYPES = List.of(
            "Punctual Run Failed", "Punctual Occurrences Missed", "Punctual Occurrence Overdue", "Punctual Job Stale");

    private final Rule rule;
    private final Queue deadLetters;

    /**
     * @param bus the stage's lifecycle bus, named {@link #busName}
     * @param topic the stage's alarm topic; EventBridge is allowed to publish to it for this rule only
     */
    public LifecycleAlerts(Construct scope, String id, String stage, IEventBus bus, ITopic topic) {
        super(scope, id);
        this.deadLetters = FunctionPoolConstruct.deadLetterQueue(this, "DeadLetters");
        this.rule = Rule.Builder.create(this, "NeedsAttention")
                .ruleName(ruleName(stage))
                .eventBus(bus)
                .description("Punctual " + stage
                        + ": failed after the last attempt, missed or overdue occurrences, stale jobs,"
                        + " to the alarm topic")
                .eventPattern(EventPattern.builder()
                        .source(List.of(LifecycleEvent.SOURCE))
                        .detailType(DETAIL_TYPES)
                        .detail(detail(stage))
                        .build())
                .build();
        rule.addTarget(new NoticeTarget(topic, deadLetters, RuleTargetInput.fromText(message(stage))));
        Stack stack = Stack.of(this);
        // CDK's SnsTopic target would grant events.amazonaws.com sns:Publish with no condition, so that a
        // rule in any account that knows the topic's ARN could send fake notices to it. This grant names
        // the rule and the account; the queue's names the rule (CloudWatch's grant is Alerting's).
        topic.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("LifecycleAlertsRuleMayPublish")
                .principals(List.of(new ServicePrincipal("events.amazonaws.com")))
                .actions(List.of("sns:Publish"))
                .resources(List.of(topic.getTopicArn()))
                .conditions(onlyTheRule(stack.getAccount(), rule.getRuleArn()))
                .build());
        deadLetters.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("LifecycleAlertsRuleMaySendUndeliveredNotices")
                .principals(List.of(new ServicePrincipal("events.amazonaws.com")))
                .actions(List.of("sqs:SendMessage"))
                .resources(List.of(deadLetters.getQueueArn()))
                .conditions(onlyTheRule(stack.getAccount(), rule.getRuleArn()))
                .build());
    }

    /** The stage's lifecycle bus: {@code punctual-<stage>}. */
    static String busName(String stage) {
        return "punctual-" + stage;
    }

    /** The rule's name, unique on the stage's own bus. */
    static String ruleName(String stage) {
        return "punctual-" + stage + "-needs-attention";
    }

    /**
     * The rule's ARN spelled out from its bus and name, for a policy the rule itself depends on (the
     * topic's key): {@code arn:<partition>:events:<region>:<account>:rule/<bus>/<rule>}.
     */
    static String ruleArn(Stack stack, String stage) {
        return "arn:" + stack.getPartition() + ":events:" + stack.getRegion() + ":" + stack.getAccount() + ":rule/"
                + busName(stage) + "/" + ruleName(stage);
    }

    private static Map<String, Object> onlyTheRule(String account, String ruleArn) {
        return new TreeMap<>(Map.of(
                "ArnEquals", Map.of("aws:SourceArn", ruleArn),
                "StringEquals", Map.of("aws:SourceAccount", account)));
    }

    /**
     * The rule's one target: the topic, with the notice as its input, and the dead-letter queue for a
     * notice EventBridge could not deliver after its retries. Unlike CDK's SnsTopic target it grants
     * nothing itself: the constructor adds the conditioned grants.
     */
    private static final class NoticeTarget implements IRuleTarget {
        private final ITopic topic;
        private final IQueue deadLetters;
        private final RuleTargetInput input;

        NoticeTarget(ITopic topic, IQueue deadLetters, RuleTargetInput input) {
            this.topic = topic;
            this.deadLetters = deadLetters;
            this.input = input;
        }

        @Override
        public RuleTargetConfig bind(IRuleRef rule) {
            return bind(rule, null);
        }

        @Override
        public RuleTargetConfig bind(IRuleRef rule, String id) {
            return RuleTargetConfig.builder()
                    .arn(topic.getTopicArn())
                    .input(input)
                    .deadLetterConfig(CfnRule.DeadLetterConfigProperty.builder()
                            .arn(deadLetters.getQueueArn())
                            .build())
                    .build();
        }
    }

    /** This stage's events that need attention; a TreeMap, so the template's key order is fixed. */
    private static Map<String, Object> detail(String stage) {
        Map<String, Object> detail = new TreeMap<>();
        detail.put("stage", List.of(stage));
        detail.put(LifecycleEvent.NEEDS_ATTENTION, List.of(true));
        return detail;
    }

    /** What the topic's subscribers read; every detail of the three kinds has these keys. */
    static String message(String stage) {
        String job = EventField.fromPath("$.detail.job");
        return "Punctual " + stage + ": " + EventField.fromPath("$.detail-type") + ". Job " + job + ", occurrence "
                + EventField.fromPath("$.detail.occurrence_local") + " (" + EventField.fromPath("$.detail.occurrence")
                + " UTC), reason " + EventField.fromPath("$.detail.reason") + ", attempts "
                + EventField.fromPath("$.detail.attempts") + ". Open the saved query punctual/" + stage
                + "/job-timeline for job " + job + " (docs/runbook.md#alerts).";
    }

    public Rule rule() {
        return rule;
    }

    /** Where a notice EventBridge could not deliver to the topic waits (alarmed, 14 days). */
    public Queue deadLetters() {
        return deadLetters;
    }
}
