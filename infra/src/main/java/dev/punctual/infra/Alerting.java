package dev.punctual.infra;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.LogQueryWidget;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.kms.Key;
import software.amazon.awscdk.services.logs.ILogGroup;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * The stage's alarms, all notifying one encrypted SNS topic, and its dashboard. Subscribe people or a
 * chat integration to the topic after deploying (docs/deploy.md).
 */
public final class Alerting extends Construct {

    private final Topic topic;
    private final StageConfig config;

    public Alerting(Construct scope, String id, StageConfig config) {
        super(scope, id);
        this.config = config;
        this.topic = Topic.Builder.create(this, "Topic")
                .displayName("Punctual " + config.stage() + " alarms")
                .masterKey(alarmKey(config))
                .enforceSsl(true)
                .build();
        allowCloudWatchToPublish();
    }

    /**
     * A customer-managed key: the AWS-managed {@code alias/aws/sns} key's policy cannot let CloudWatch use
     * it, so alarm actions on a topic encrypted with it fail and no notification ever arrives.
     */
    private Key alarmKey(StageConfig config) {
        Key key = Key.Builder.create(this, "TopicKey")
                .description("Punctual " + config.stage() + " alarm topic")
                .enableKeyRotation(true)
                .removalPolicy(config.retainData() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
                .build();
        key.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("CloudWatchAlarmsAndLifecycleAlertsMayEncryptForTheTopic")
                // EventBridge delivers the lifecycle rule's notices (LifecycleAlerts) to the same topic.
                .principals(List.of(
                        new ServicePrincipal("cloudwatch.amazonaws.com"), new ServicePrincipal("events.amazonaws.com")))
                .actions(List.of("kms:Decrypt", "kms:GenerateDataKey*"))
                .resources(List.of("*")) // in a key policy, "*" is this key
                .conditions(Map.of(
                        "StringEquals",
                        Map.of("aws:SourceAccount", Stack.of(this).getAccount())))
                .build());
        return key;
    }

    /** enforceSsl's policy only denies; CloudWatch alarms of this account need an explicit allow. */
    private void allowCloudWatchToPublish() {
        topic.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("CloudWatchAlarmsMayPublish")
                .principals(List.of(new ServicePrincipal("cloudwatch.amazonaws.com")))
                .actions(List.of("sns:Publish"))
                .resources(List.of(topic.getTopicArn()))
                .conditions(new TreeMap<>(Map.of(
                        "StringEquals",
                                Map.of("aws:SourceAccount", Stack.of(this).getAccount()),
                        "ArnLike",
                                Map.of(
                                        "aws:SourceArn",
                                        "arn:" + Stack.of(this).getPartition() + ":cloudwatch:"
                                                + Stack.of(this).getRegion() + ":"
                                                + Stack.of(this).getAccount() + ":alarm:*"))))
                .build());
    }

    public Topic topic() {
        return topic;
    }

    /** Any failed occurrence in the stage (the EMF metric {@code Fail} with dimension stage only). */
    public Alarm failures() {
        Metric fail = outcomeMetric("Fail", Map.of("stage", config.stage()));
        return alarm(
                "Failures",
                fail,
                config.alarms().failuresPerPeriod(),
                "Punctual " + config.stage() + ": occurrences failed; run the saved query punctual/" + config.stage()
                        + "/failures");
    }

    /**
     * Occurrences the runtime recorded as missed anywhere in the stage (the EMF metric {@code Missed}
     * with dimension stage only): catch-up found more than it may replay, or older than it may.
     */
    public Alarm missed() {
        Metric missed = outcomeMetric("Missed", Map.of("stage", config.stage()));
        return alarm(
                "Missed",
                missed,
                1,
                "Punctual " + config.stage() + ": occurrences were recorded as missed; run the saved query punctual/"
                        + config.stage() + "/catch-up-and-missed");
    }

    /**
     * Occurrences the missed-run watchdog found due and never delivered, anywhere in the stage (the
     * EMF metric {@code Overdue} with dimension stage only). The lifecycle rule's notice names the job.
     */
    public Alarm overdue() {
        Metric overdue = outcomeMetric("Overdue", Map.of("stage", config.stage()));
        return alarm(
                "Overdue",
                overdue,
                1,
                "Punctual " + config.stage() + ": the missed-run watchdog found occurrences that were due and never"
                        + " delivered; the notice on the topic names the job; docs/runbook.md#overdue");
    }

    /**
     * The watchdog's own heartbeat ({@code WatchdogRuns}, one per hourly run) was absent for two hours:
     * nothing is watching the stage's schedules. Muted, not removed, while the stage's schedules are off.
     */
    public Alarm watchdogSilent() {
        Metric runs = Metric.Builder.create()
                .namespace("Punctual")
                .metricName("WatchdogRuns")
                .dimensionsMap(Map.of("stage", config.stage()))
                .statistic("Sum")
                .period(Duration.hours(1))
                .build();
        Alarm alarm = Alarm.Builder.create(this, "WatchdogSilent")
                .metric(runs)
                .threshold(1)
                .evaluationPeriods(2)
                .datapointsToAlarm(2)
                .comparisonOperator(ComparisonOperator.LESS_THAN_THRESHOLD)
                .treatMissingData(TreatMissingData.BREACHING)
                .actionsEnabled(config.flags().schedulesEnabled())
                .alarmDescription("Punctual " + config.stage() + ": the missed-run watchdog has not run for two hours,"
                        + " so undelivered occurrences go unnoticed; check its schedule missed-run-watchdog in group"
                        + " punctual-" + config.stage()
                        + " and the default pool's errors (docs/runbook.md#watchdog-silent)")
                .build();
        alarm.addAlarmAction(new SnsAction(topic));
        return alarm;
    }

    /** A dead-letter path holds at least one event: a schedule or an invocation was given up. */
    public Alarm deadLetters(String id, IQueue queue, String what) {
        IMetric depth = queue.metricApproximateNumberOfMessagesVisible(
                software.amazon.awscdk.services.cloudwatch.MetricOptions.builder()
                        .period(Duration.minutes(5))
                        .statistic("Maximum")
                        .build());
        return alarm(id, depth, 1, "Punctual " + config.stage() + ": " + what);
    }

    /** Outcomes by kind, dead-letter depths and the latest failures, on one page. */
    public Dashboard dashboard(List<IQueue> deadLetterQueues, List<ILogGroup> logGroups) {
        Map<String, String> stage = Map.of("stage", config.stage());
        Dashboard dashboard = Dashboard.Builder.create(this, "Dashboard")
                .dashboardName("punctual-" + config.stage())
                .build();
        dashboard.addWidgets(
                GraphWidget.Builder.create()
                        .title("Occurrences by outcome")
                        .left(List.of(
                                outcomeMetric("Pass", stage),
                                outcomeMetric("Skip", stage),
                                outcomeMetric("Fail", stage)))
                        .width(12)
                        .build(),
                GraphWidget.Builder.create()
                        .title("Catch-up, missed, lock busy")
                        .left(List.of(
                                outcomeMetric("CatchUp", stage),
                                outcomeMetric("Missed", stage),
                                outcomeMetric("Overdue", stage),
                                outcomeMetric("LockBusy", stage)))
                        .width(12)
                        .build());
        dashboard.addWidgets(
                GraphWidget.Builder.create()
                        .title("Dead-letter queues (messages visible)")
                        .left(deadLetterQueues.stream()
                                .map(q -> (IMetric) q.metricApproximateNumberOfMessagesVisible())
                                .toList())
                        .width(12)
                        .build(),
                LogQueryWidget.Builder.create()
                        .title("Latest failures")
                        .logGroupNames(logGroups.stream()
                                .map(ILogGroup::getLogGroupName)
                                .toList())
                        .queryString(SavedQueries.ALL.get(0).query())
                        .width(12)
                        .build());
        return dashboard;
    }

    private Alarm alarm(String id, IMetric metric, int threshold, String description) {
        Alarm alarm = Alarm.Builder.create(this, id)
                .metric(metric)
                .threshold(threshold)
                .evaluationPeriods(1)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                // No line means nothing happened, which is not a failure; gaps have their own alarm.
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .alarmDescription(description)
                .build();
        alarm.addAlarmAction(new SnsAction(topic));
        return alarm;
    }

    private Metric outcomeMetric(String name, Map<String, String> dimensions) {
        return Metric.Builder.create()
                .namespace("Punctual")
                .metricName(name)
                .dimensionsMap(dimensions)
                .statistic("Sum")
                .period(Duration.minutes(config.alarms().periodMinutes()))
                .build();
    }
}
