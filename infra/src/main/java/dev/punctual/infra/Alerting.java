package dev.punctual.infra;

import dev.punctual.outcome.OutcomeLog;
import dev.punctual.stage.StageOutputs;
import java.util.LinkedHashMap;
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
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
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
                .sid("CloudWatchAlarmsMayEncryptForTheTopic")
                .principals(List.of(new ServicePrincipal("cloudwatch.amazonaws.com")))
                .actions(List.of("kms:Decrypt", "kms:GenerateDataKey*"))
                .resources(List.of("*")) // in a key policy, "*" is this key
                .conditions(Map.of(
                        "StringEquals",
                        Map.of("aws:SourceAccount", Stack.of(this).getAccount())))
                .build());
        // EventBridge delivers the lifecycle rule's notices (LifecycleAlerts) to the same topic: only for
        // that rule, so another account's rule (or another rule of this one) cannot use the key. The
        // rule's ARN is spelled out, not referenced: the rule depends on the topic, which depends on this key.
        key.addToResourcePolicy(PolicyStatement.Builder.create()
                .sid("LifecycleAlertsRuleMayEncryptForTheTopic")
                .principals(List.of(new ServicePrincipal("events.amazonaws.com")))
                .actions(List.of("kms:Decrypt", "kms:GenerateDataKey*"))
                .resources(List.of("*"))
                .conditions(new TreeMap<>(Map.of(
                        "StringEquals",
                        Map.of("aws:SourceAccount", Stack.of(this).getAccount()),
                        "ArnEquals",
                        Map.of("aws:SourceArn", LifecycleAlerts.ruleArn(Stack.of(this), config.stage())))))
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

    /**
     * Occurrences that failed for good anywhere in the stage: the EMF metric {@code FinalFail} (dimension
     * stage only), 1 on a failure no retry follows (the last attempt, attempts exhausted, a manual run or
     * replay). A failed attempt that Lambda will retry counts in {@code Fail} only, which the dashboard
     * graphs beside it and nothing pages on.
     */
    public Alarm failures() {
        Metric fail = outcomeMetric(OutcomeLog.FINAL_FAIL, Map.of("stage", config.stage()));
        String stage = config.stage();
        return alarm(
                "Failures",
                fail,
                config.alarms().failuresPerPeriod(),
                "occurrences failed for good (their last attempt, attempts exhausted, or a manual run or replay);"
                        + " a failed attempt that Lambda retries does not count",
                "run the saved query punctual/" + stage + "/failures (the notices on the topic name the jobs), fix"
                        + " the cause, then punctual run JOB --at T --force --stage " + stage
                        + " for each occurrence that must still happen",
                "failures");
    }

    /**
     * Occurrences the runtime recorded as missed anywhere in the stage (the EMF metric {@code Missed}
     * with dimension stage only): catch-up found more than it may replay, or older than it may.
     */
    public Alarm missed() {
        Metric missed = outcomeMetric("Missed", Map.of("stage", config.stage()));
        String stage = config.stage();
        return alarm(
                "Missed",
                missed,
                1,
                "catch-up recorded occurrences as missed (more, or older, than the job's policy replays)",
                "run the saved query punctual/" + stage + "/catch-up-and-missed and, for a range that matters,"
                        + " punctual replay JOB --from T --to T --dry-run, then without --dry-run",
                "missed");
    }

    /**
     * Occurrences skipped because a maintenance condition of the catalog could not be evaluated (decision
     * 0036, 5): the stage's {@code Occurrences} metric with reason {@code MAINTENANCE_UNKNOWN}. Only a
     * stage whose catalog declares a condition has it; such a skip holds every job until the condition can
     * be read again, so the first one pages.
     */
    public Alarm maintenanceUnknown() {
        Metric unknown = outcomeMetric(
                OutcomeLog.OCCURRENCES,
                // Sorted: the template must not depend on a Map.of's iteration order (DeterminismTest).
                new TreeMap<>(Map.of("stage", config.stage(), "outcome", "SKIP", "reason", "MAINTENANCE_UNKNOWN")));
        String stage = config.stage();
        return alarm(
                "MaintenanceUnknown",
                unknown,
                1,
                "a maintenance condition could not be evaluated (a timeout, access denied, a missing table or"
                        + " index), so jobs skipped rather than run blind",
                "read the skip's detail (punctual status --stage " + stage + ", or the saved query punctual/" + stage
                        + "/skips-by-reason), then punctual verify --stage " + stage + " to check the functions may"
                        + " query the condition's table",
                "maintenance-unknown");
    }

    /**
     * Occurrences of a job needing approval skipped because none was given before their claim (decision
     * 0041): the stage's {@code Occurrences} metric with reason {@code UNAPPROVED}. Only a stage whose catalog
     * has such a job has it; each such skip is an occurrence that did not run, so the first one pages.
     */
    public Alarm unapproved() {
        Metric unapproved = outcomeMetric(
                OutcomeLog.OCCURRENCES,
                // Sorted: the template must not depend on a Map.of's iteration order (DeterminismTest).
                new TreeMap<>(Map.of("stage", config.stage(), "outcome", "SKIP", "reason", "UNAPPROVED")));
        String stage = config.stage();
        return alarm(
                "Unapproved",
                unapproved,
                1,
                "an occurrence of a job that needs approval was delivered without one, so it was skipped",
                "read the skip's detail (punctual status JOB --stage " + stage + "); if it should run, punctual approve"
                        + " JOB --at T --stage " + stage + " (it shows the preview), then punctual run JOB --at T"
                        + " --stage " + stage + " within its start deadline",
                "unapproved");
    }

    /**
     * Occurrences the missed-run watchdog found due and never delivered, anywhere in the stage (the
     * EMF metric {@code Overdue} with dimension stage only). The lifecycle rule's notice names the job.
     */
    public Alarm overdue() {
        Metric overdue = outcomeMetric("Overdue", Map.of("stage", config.stage()));
        String stage = config.stage();
        return alarm(
                "Overdue",
                overdue,
                1,
                "the missed-run watchdog found occurrences that were due and never delivered; the notice on the"
                        + " topic names the job",
                "check the job's schedule (aws scheduler get-schedule --group-name punctual-" + stage
                        + " --name JOB: exists, ENABLED, targets the live alias) and the scheduler dead-letter queue,"
                        + " then punctual run JOB --at T for the occurrence the notice names",
                "overdue");
    }

    /**
     * Jobs with no success within their freshness bound (decision 0042): the watchdog's stage-wide {@code
     * StaleJobs}, the count at each hourly run, at least 1. Its maximum over the hour, so one run is enough;
     * the lifecycle rule's notice names each job as it turns stale. Only a stage with a watched job has it.
     */
    public Alarm stale() {
        Metric stale = Metric.Builder.create()
                .namespace("Punctual")
                .metricName("StaleJobs")
                .dimensionsMap(Map.of("stage", config.stage()))
                .statistic("Maximum")
                .period(Duration.hours(1))
                .build();
        String stage = config.stage();
        return alarm(
                "StaleJobs",
                stale,
                1,
                "jobs went longer than their freshness bound without a success; the notice on the topic names"
                        + " each one",
                "punctual status --stage " + stage + " marks the stale jobs; punctual status JOB --stage " + stage
                        + " shows its last success and outcome: fix the cause, then punctual run JOB --stage " + stage,
                "stale");
    }

    /**
     * Deliveries the Scheduler or Lambda gave up, recorded on their occurrences by the dead-letter consumer
     * (decision 0044): its EMF metric {@code Undelivered} (dimension stage only), one datum per batch that
     * recorded any. The occurrences did not run.
     */
    public Alarm undelivered() {
        Metric undelivered = outcomeMetric("Undelivered", Map.of("stage", config.stage()));
        String stage = config.stage();
        return alarm(
                "Undelivered",
                undelivered,
                1,
                "deliveries the scheduler or Lambda gave up were recorded as UNDELIVERED on their occurrences, which"
                        + " did not run",
                "run the saved query punctual/" + stage + "/skips-by-reason or read the consumer's log (message"
                        + " dead-lettered delivery: job, occurrence, error), fix the cause (a permission, a deleted alias,"
                        + " a crash), then punctual replay JOB --from T --to T --stage " + stage,
                "undelivered");
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
        String stage = config.stage();
        Alarm alarm = Alarm.Builder.create(this, "WatchdogSilent")
                .alarmName(alarmName(stage, "WatchdogSilent"))
                .metric(runs)
                .threshold(1)
                .evaluationPeriods(2)
                .datapointsToAlarm(2)
                .comparisonOperator(ComparisonOperator.LESS_THAN_THRESHOLD)
                .treatMissingData(TreatMissingData.BREACHING)
                .actionsEnabled(config.flags().schedulesEnabled())
                .alarmDescription(description(
                        stage,
                        "the missed-run watchdog has not run for two hours, so undelivered occurrences go unnoticed",
                        "check its schedule (aws scheduler get-schedule --group-name punctual-" + stage
                                + " --name missed-run-watchdog), the default pool's errors and on-failure queue,"
                                + " then punctual run missed-run-watchdog --stage " + stage,
                        "watchdog-silent"))
                .build();
        notifyTopic(alarm);
        return alarm;
    }

    /**
     * One long job's executions failed or timed out (decision 0039): Step Functions' own {@code
     * ExecutionsFailed} and {@code ExecutionsTimedOut} of its state machine, summed. An aborted execution
     * (an operator's {@code punctual cancel}) does not count. The ledger records the occurrence FAILED from
     * the execution's status change; this alarm pages even if that record could not be written.
     *
     * @param stateMachineArn the job's state machine
     */
    public Alarm longRunFailed(String jobId, String stateMachineArn) {
        Map<String, IMetric> ended = new LinkedHashMap<>();
        ended.put("failed", stepFunctionsMetric("ExecutionsFailed", stateMachineArn));
        ended.put("timedout", stepFunctionsMetric("ExecutionsTimedOut", stateMachineArn));
        MathExpression sum = MathExpression.Builder.create()
                .expression("FILL(failed, 0) + FILL(timedout, 0)")
                .usingMetrics(ended)
                .period(Duration.minutes(config.alarms().periodMinutes()))
                .label("failed or timed-out executions of " + jobId)
                .build();
        String stage = config.stage();
        return alarm(
                "LongRun-" + jobId,
                sum,
                1,
                "an execution of long job " + jobId + " failed or timed out (its state machine "
                        + LongRuns.stateMachineName(stage, jobId) + ")",
                "punctual status " + jobId + " --stage " + stage + " names the occurrence and the chunk that failed;"
                        + " read the execution's history (aws stepfunctions describe-execution), fix the cause, then"
                        + " punctual run " + jobId + " --at T --force --stage " + stage
                        + ": chunks already recorded as succeeded are not run again",
                "long-run-failed");
    }

    private Metric stepFunctionsMetric(String name, String stateMachineArn) {
        return Metric.Builder.create()
                .namespace("AWS/States")
                .metricName(name)
                .dimensionsMap(Map.of("StateMachineArn", stateMachineArn))
                .statistic("Sum")
                .period(Duration.minutes(config.alarms().periodMinutes()))
                .build();
    }

    /**
     * A dead-letter path holds at least one message: a delivery, an invocation or a notice was given up.
     *
     * @param what what a message there means
     * @param next what to do about it
     * @param anchor the runbook row ({@code docs/runbook.md#anchor}) that says more
     */
    public Alarm deadLetters(String id, IQueue queue, String what, String next, String anchor) {
        IMetric depth = queue.metricApproximateNumberOfMessagesVisible(MetricOptions.builder()
                .period(Duration.minutes(5))
                .statistic("Maximum")
                .build());
        return alarm(id, depth, 1, what, next, anchor);
    }

    /**
     * An alarm's name: the stack's name ({@code Punctual-<stage>}, which {@code punctual verify} lists the
     * stage's alarms by) and its purpose. Alarm names are unique per account and region, and a stage's
     * stack is per region, so the same stage in two regions never collides.
     */
    static String alarmName(String stage, String purpose) {
        return StageOutputs.stackName(stage) + "-" + purpose;
    }

    /** What fired, what to do next, and the runbook row: every alarm's description has the three. */
    static String description(String stage, String what, String next, String anchor) {
        return "Punctual " + stage + ": " + what + ". Next: " + next + " (docs/runbook.md#" + anchor + ")";
    }

    /** The topic hears of the alarm firing and of it being OK again. */
    void notifyTopic(Alarm alarm) {
        SnsAction action = new SnsAction(topic);
        alarm.addAlarmAction(action);
        alarm.addOkAction(action);
    }

    /**
     * {@code punctual-<stage>-<region>}: dashboards are global to the account, not per region, so the
     * same stage deployed to two regions of one account needs two names ({@code region} may be the
     * deploy-time token of an unpinned stack).
     */
    static String dashboardName(String stage, String region) {
        return "punctual-" + stage + "-" + region;
    }

    /** Outcomes by kind, failed attempts beside final failures, dead-letter depths and the latest failures. */
    public Dashboard dashboard(List<IQueue> deadLetterQueues, List<ILogGroup> logGroups) {
        Map<String, String> stage = Map.of("stage", config.stage());
        Dashboard dashboard = Dashboard.Builder.create(this, "Dashboard")
                .dashboardName(dashboardName(config.stage(), Stack.of(this).getRegion()))
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
                        .title("Failed attempts and final failures")
                        .left(List.of(
                                outcomeMetric("Fail", stage)
                                        .with(MetricOptions.builder()
                                                .label("Fail: failed attempts, retried ones included")
                                                .build()),
                                outcomeMetric(OutcomeLog.FINAL_FAIL, stage)
                                        .with(MetricOptions.builder()
                                                .label("FinalFail: no retry follows (pages)")
                                                .build())))
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

    private Alarm alarm(String id, IMetric metric, int threshold, String what, String next, String anchor) {
        Alarm alarm = Alarm.Builder.create(this, id)
                .alarmName(alarmName(config.stage(), id))
                .metric(metric)
                .threshold(threshold)
                .evaluationPeriods(1)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                // No line means nothing happened, which is not a failure; gaps have their own alarm.
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .alarmDescription(description(config.stage(), what, next, anchor))
                .build();
        notifyTopic(alarm);
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
