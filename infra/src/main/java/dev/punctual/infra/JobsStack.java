package dev.punctual.infra;

import dev.punctual.job.JobDefinition;
import dev.punctual.runtime.ScheduledPayload;
import dev.punctual.time.Schedule.Deployment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.NestedStack;
import software.amazon.awscdk.NestedStackProps;
import software.amazon.awscdk.TimeZone;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.scheduler.IScheduleGroup;
import software.amazon.awscdk.services.scheduler.Schedule;
import software.amazon.awscdk.services.scheduler.ScheduleExpression;
import software.amazon.awscdk.services.scheduler.ScheduleTargetInput;
import software.amazon.awscdk.services.scheduler.TimeWindow;
import software.amazon.awscdk.services.scheduler.targets.LambdaInvoke;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * A share of the catalog's per-job resources: for each job its EventBridge Scheduler schedule, and a
 * missed-run alarm for the jobs that opted in to metrics of their own ({@code perJobMetrics}); every
 * other job is watched by the stage-wide alarms and the missed-run watchdog, with no resource of its
 * own (docs/decisions/0009-stage-wide-metrics.md). A nested stack, so one {@code cdk deploy} still deploys the whole stage while each
 * template stays within CloudFormation's limits (see {@link StageStack#JOB_SHARDS}).
 *
 * <p>Everything shared (schedule group, aliases, the scheduler's dead-letter queue, the alarm topic)
 * lives in the stage stack and arrives here as nested-stack parameters, which CDK wires itself; no
 * stack exports are involved.
 */
public final class JobsStack extends NestedStack {

    /** What the stage stack hands to each jobs stack. */
    record Shared(
            StageConfig config,
            IScheduleGroup group,
            Map<String, IFunction> aliases,
            IQueue deadLetters,
            ITopic topic,
            SchedulerRoles roles) {}

    private final Map<String, Schedule> schedules = new LinkedHashMap<>();
    private final Map<String, Alarm> missedRunAlarms = new LinkedHashMap<>();

    JobsStack(Construct scope, String id, Shared shared, List<JobDefinition> jobs, Map<String, Cadence> cadences) {
        super(
                scope,
                id,
                NestedStackProps.builder()
                        .description("Punctual " + shared.config().stage() + ": schedules of " + jobs.size() + " jobs")
                        .build());
        for (JobDefinition job : jobs) {
            schedules.put(job.id(), schedule(shared, job));
            if (job.perJobMetrics()) {
                // Only such a job publishes the [stage, job] metrics this alarm reads.
                MissedRunWatch watch = MissedRunWatch.forJob(
                        job, cadences.get(job.id()), shared.config().retries());
                missedRunAlarms.put(job.id(), missedRunAlarm(shared, job, watch));
            }
        }
    }

    public Map<String, Schedule> schedules() {
        return schedules;
    }

    /** The missed-run alarms of the jobs that opted in to per-job metrics, by job id. */
    public Map<String, Alarm> missedRunAlarms() {
        return missedRunAlarms;
    }

    private Schedule schedule(Shared shared, JobDefinition job) {
        IFunction alias = shared.aliases().get(job.pool().name());
        RetrySettings retries = shared.config().retries();
        Deployment deployment = job.deployment();
        return Schedule.Builder.create(this, "Schedule-" + job.id())
                .scheduleName(job.id())
                .scheduleGroup(shared.group())
                .description(description(job))
                .schedule(ScheduleExpression.expression(
                        deployment.expression(), TimeZone.of(deployment.zone().getId())))
                .timeWindow(TimeWindow.off())
                .enabled(shared.config().flags().schedulesEnabled())
                .target(LambdaInvoke.Builder.create(alias)
                        .role(shared.roles().of(job.pool().name()))
                        .input(ScheduleTargetInput.fromObject(ScheduledPayload.forJob(job.id(), job.offsetMinutes())))
                        .retryAttempts(retries.schedulerRetryAttempts())
                        .maxEventAge(
                                Duration.seconds(retries.schedulerMaxEventAge().toSeconds()))
                        .deadLetterQueue(shared.deadLetters())
                        .build())
                .build();
    }

    private static String description(JobDefinition job) {
        String text = "Punctual job " + job.id() + (job.description().isBlank() ? "" : ": " + job.description());
        // The API accepts at most 512 characters.
        return text.length() <= 512 ? text : text.substring(0, 509) + "...";
    }

    private Alarm missedRunAlarm(Shared shared, JobDefinition job, MissedRunWatch watch) {
        String stage = shared.config().stage();
        Duration period = Duration.seconds(watch.period().toSeconds());
        Alarm.Builder alarm = Alarm.Builder.create(this, "MissedRun-" + job.id())
                .alarmName(Alerting.alarmName(stage, "MissedRun-" + job.id()))
                .threshold(1)
                .evaluationPeriods(watch.evaluationPeriods())
                .datapointsToAlarm(watch.evaluationPeriods())
                // With schedules switched off, silence is expected: keep the alarm, mute its actions.
                .actionsEnabled(shared.config().flags().schedulesEnabled());
        if (watch.kind() == MissedRunWatch.Kind.NO_OUTCOME) {
            Map<String, IMetric> outcomes = new LinkedHashMap<>();
            for (String name : List.of("Pass", "Skip", "Fail")) {
                outcomes.put(name.toLowerCase(java.util.Locale.ROOT), jobMetric(stage, job.id(), name, period));
            }
            alarm.metric(MathExpression.Builder.create()
                            .expression("FILL(pass, 0) + FILL(skip, 0) + FILL(fail, 0)")
                            .usingMetrics(outcomes)
                            .period(period)
                            .label("outcomes of " + job.id())
                            .build())
                    .comparisonOperator(ComparisonOperator.LESS_THAN_THRESHOLD)
                    .treatMissingData(TreatMissingData.BREACHING)
                    .alarmDescription(Alerting.description(
                            stage,
                            "job " + job.id() + " recorded no outcome for " + watch.window()
                                    + " (its longest expected gap plus slack)",
                            "check that its schedule is enabled (aws scheduler get-schedule --group-name punctual-"
                                    + stage + " --name " + job.id() + "), run the saved query punctual/" + stage
                                    + "/job-timeline for it, then punctual run " + job.id()
                                    + " --at T for an occurrence that must still happen",
                            "missed-run"));
        } else {
            Map<String, IMetric> late = new LinkedHashMap<>();
            late.put("missed", jobMetric(stage, job.id(), "Missed", period));
            late.put("catchup", jobMetric(stage, job.id(), "CatchUp", period));
            // Emitted hourly by the missed-run watchdog job when a due occurrence was never delivered.
            late.put("overdue", jobMetric(stage, job.id(), "Overdue", period));
            alarm.metric(MathExpression.Builder.create()
                            .expression("FILL(missed, 0) + FILL(catchup, 0) + FILL(overdue, 0)")
                            .usingMetrics(late)
                            .period(period)
                            .label("missed or caught-up occurrences of " + job.id())
                            .build())
                    .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                    .treatMissingData(TreatMissingData.NOT_BREACHING)
                    .alarmDescription(Alerting.description(
                            stage,
                            "job " + job.id() + " missed occurrences (recorded as missed or caught up late), or the"
                                    + " missed-run watchdog found a due occurrence that was never delivered; its cadence"
                                    + " is longer than an alarm can watch for silence (7 days), so the hourly watchdog"
                                    + " watches it (docs/decisions/0004-missed-run-alarms.md)",
                            "run the saved query punctual/" + stage + "/catch-up-and-missed for it and replay what"
                                    + " matters with punctual replay " + job.id() + " --from T --to T",
                            "missed-run"));
        }
        Alarm built = alarm.build();
        SnsAction action = new SnsAction(shared.topic());
        built.addAlarmAction(action);
        built.addOkAction(action);
        return built;
    }

    private static Metric jobMetric(String stage, String job, String name, Duration period) {
        return Metric.Builder.create()
                .namespace("Punctual")
                .metricName(name)
                .dimensionsMap(new TreeMap<>(Map.of("stage", stage, "job", job)))
                .statistic("Sum")
                .period(period)
                .build();
    }
}
