package dev.punctual.infra;

import dev.punctual.events.LifecycleEvent;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.services.events.EventField;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.IEventBus;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.RuleTargetInput;
import software.amazon.awscdk.services.events.targets.SnsTopic;
import software.amazon.awscdk.services.sns.ITopic;
import software.constructs.Construct;

/**
 * One EventBridge rule on the stage's lifecycle bus that sends the events someone must act on (a run
 * failed after its last attempt, occurrences missed, an occurrence overdue) to the stage's topic, as a
 * sentence naming the job: one rule for the whole catalog instead of an alarm per job.
 */
public final class LifecycleAlerts extends Construct {

    /** The detail types the rule matches, among those only the ones whose detail needs attention. */
    public static final List<String> DETAIL_TYPES =
            List.of("Punctual Run Failed", "Punctual Occurrences Missed", "Punctual Occurrence Overdue");

    private final Rule rule;

    public LifecycleAlerts(Construct scope, String id, String stage, IEventBus bus, ITopic topic) {
        super(scope, id);
        this.rule = Rule.Builder.create(this, "NeedsAttention")
                .eventBus(bus)
                .description("Punctual " + stage + ": failed after the last attempt, missed or overdue occurrences,"
                        + " to the alarm topic")
                .eventPattern(EventPattern.builder()
                        .source(List.of(LifecycleEvent.SOURCE))
                        .detailType(DETAIL_TYPES)
                        .detail(detail(stage))
                        .build())
                .targets(List.of(SnsTopic.Builder.create(topic)
                        .message(RuleTargetInput.fromText(message(stage)))
                        .build()))
                .build();
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
}
