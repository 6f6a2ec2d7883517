package dev.punctual.infra;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.CfnInsightRule;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.constructs.Construct;

/**
 * Per-job insight without per-job metrics: CloudWatch Contributor Insights rules over the log lines the
 * stage already stores, each ranking jobs (the {@code job} field) by how often they failed, started
 * late or were missed. Three rules per stage, whatever the number of jobs.
 */
public final class ContributorInsights extends Construct {

    /** A rule: its name suffix and the filters of the lines it counts. */
    public record InsightRule(String name, List<Map<String, Object>> filters) {}

    /** A start later than this counts as late (a minute: EventBridge may deliver anywhere in the minute). */
    public static final long LATE_MS = 60_000;

    public static final List<InsightRule> RULES = List.of(
            new InsightRule(
                    "top-failing-jobs", List.of(in("$.message", "occurrence outcome"), in("$.outcome", "FAIL"))),
            new InsightRule(
                    "top-late-jobs",
                    List.of(in("$.message", "occurrence outcome"), greaterThan("$.lateness_ms", LATE_MS))),
            new InsightRule("top-missed-jobs", List.of(in("$.message", "occurrences missed", "occurrence overdue"))));

    private final List<CfnInsightRule> rules = new ArrayList<>();

    public ContributorInsights(Construct scope, String id, String stage, List<ILogGroup> logGroups) {
        super(scope, id);
        for (InsightRule rule : RULES) {
            rules.add(CfnInsightRule.Builder.create(this, rule.name())
                    .ruleName("punctual-" + stage + "-" + rule.name())
                    .ruleState("ENABLED")
                    .ruleBody(Stack.of(this).toJsonString(body(rule, logGroups)))
                    .build());
        }
    }

    private static Map<String, Object> greaterThan(String field, long value) {
        Map<String, Object> filter = new LinkedHashMap<>();
        filter.put("Match", field);
        filter.put("GreaterThan", value);
        return filter;
    }

    private static Map<String, Object> in(String field, String... values) {
        Map<String, Object> filter = new LinkedHashMap<>();
        filter.put("Match", field);
        filter.put("In", List.of(values));
        return filter;
    }

    private static Map<String, Object> body(InsightRule rule, List<ILogGroup> logGroups) {
        Map<String, Object> contribution = new LinkedHashMap<>();
        contribution.put("Keys", List.of("$.job"));
        contribution.put("Filters", rule.filters());
        Map<String, Object> body = new LinkedHashMap<>();
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("Name", "CloudWatchLogRule");
        schema.put("Version", 1);
        body.put("Schema", schema);
        body.put(
                "LogGroupNames",
                logGroups.stream().map(ILogGroup::getLogGroupName).toList());
        body.put("LogFormat", "JSON");
        body.put("Contribution", contribution);
        body.put("AggregateOn", "Count");
        return body;
    }

    /** A widget per rule: the count of its top contributor and how many jobs contribute at all. */
    public void addTo(Dashboard dashboard) {
        List<IMetric> metrics = new ArrayList<>();
        for (CfnInsightRule rule : rules) {
            String name = rule.getRuleName();
            String label = name.substring(name.lastIndexOf("-top-") + 1);
            metrics.add(MathExpression.Builder.create()
                    .expression("INSIGHT_RULE_METRIC('" + name + "', 'MaxContributorValue')")
                    .label(label + ": the top job's count")
                    .build());
            metrics.add(MathExpression.Builder.create()
                    .expression("INSIGHT_RULE_METRIC('" + name + "', 'UniqueContributors')")
                    .label(label + ": jobs")
                    .build());
        }
        dashboard.addWidgets(GraphWidget.Builder.create()
                .title("Contributor Insights: failing, late, missed jobs (open the rules for the job names)")
                .left(metrics)
                .width(24)
                .build());
    }

    public List<CfnInsightRule> rules() {
        return rules;
    }
}
