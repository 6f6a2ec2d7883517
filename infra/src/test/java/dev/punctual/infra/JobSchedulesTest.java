package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.stage.StageOutputs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.assertions.Template;

/**
 * The fixture catalog's schedules, keep-warm pings and missed-run alarms in the dev stage, and the same
 * stage deployed with {@code -c schedules=off}. Two syntheses, shared by every test.
 */
class JobSchedulesTest {

    private static final JobCatalog CATALOG = Synth.CATALOG;

    /**
     * The fixture catalog with every job opted in to per-job metrics, so that each has a missed-run alarm to
     * check (decision 0009: without the opt-in a job has none).
     */
    private static final JobCatalog OPTED_IN = optedIn(CATALOG);

    private static StageStack dev;
    private static Template devTemplate;
    private static Map<String, Templates.Located> devSchedules;
    private static StageStack off;
    private static Map<String, Templates.Located> offSchedules;

    @BeforeAll
    static void synth() {
        dev = Synth.stage(Stages.named("dev"), OPTED_IN);
        devTemplate = Template.fromStack(dev);
        devSchedules = Templates.jobSchedules(dev);
        App offApp = Synth.app(Map.of("stage", "dev", "schedules", "off"));
        off = PunctualApp.build(offApp, PunctualApp.configFromContext(offApp), OPTED_IN, Synth.code());
        offSchedules = Templates.jobSchedules(off);
    }

    @Test
    void everyCatalogJob_hasExactlyOneSchedule_namedByItsId_inTheStagesGroup() {
        assertThat(devSchedules.keySet()).containsExactlyInAnyOrderElementsOf(CATALOG.ids());
        assertThat(devSchedules.values())
                .allSatisfy(s -> assertThat(s.properties()).containsEntry("GroupName", "punctual-dev"));
        devTemplate.resourceCountIs("AWS::Scheduler::ScheduleGroup", 1);
        devTemplate.hasResourceProperties("AWS::Scheduler::ScheduleGroup", Map.of("Name", "punctual-dev"));
    }

    @Test
    void stageOutputs_nameEachPoolsFunction_theAlarmTopic_andTheScheduleGroup() {
        Map<String, Map<String, Object>> outputs = devTemplate.findOutputs("*");

        assertThat(outputs)
                .containsKeys(
                        "PoolFunctionDefault",
                        "PoolFunctionMaintenance",
                        "AlarmTopicArn",
                        "LedgerTableName",
                        StageOutputs.jobTable(FixtureCatalog.RECORDS.name()));
        assertThat(outputs.get("PoolFunctionDefault").get("Value"))
                .isEqualTo(Templates.ref(
                        Templates.logicalId(dev.pools().get("default").function())));
        assertThat(outputs.get("ScheduleGroupName").toString()).contains("punctual-dev");
    }

    @Test
    void everyOutputKey_isPascalCased_likeEveryOther() {
        assertThat(devTemplate.findOutputs("*").keySet())
                .isNotEmpty()
                .allSatisfy(key -> assertThat(key).as(key).matches("[A-Z][A-Za-z0-9]*"))
                .noneSatisfy(key -> assertThat(key).matches(".*[a-z]default.*|.*Of[a-z].*"));
    }

    @Test
    void everySchedule_carriesItsJobsExpressionAndZone_neverTheUtcDefault() {
        for (JobDefinition job : CATALOG.jobs()) {
            assertThat(devSchedules.get(job.id()).properties())
                    .as(job.id())
                    .containsEntry("ScheduleExpression", job.schedule().toEventBridge())
                    .containsEntry(
                            "ScheduleExpressionTimezone", job.schedule().zone().getId());
        }
        assertThat(CATALOG.jobs())
                .anySatisfy(j -> assertThat(j.schedule().zone().getId()).isNotEqualTo("UTC"));
    }

    /** Decision 0049: an RRULE is deployed as the narrowest cron containing it, in the job's own zone. */
    @Test
    void anRruleJobsSchedule_isItsContainingCron_inItsZone() {
        assertThat(devSchedules.get(FixtureCatalog.FORTNIGHTLY).properties())
                .containsEntry("ScheduleExpression", "cron(0 9 ? * MON 2026-2199)")
                .containsEntry("ScheduleExpressionTimezone", "Europe/Berlin");
    }

    @Test
    void everySchedule_includingKeepWarm_hasTheFlexibleTimeWindowOff() {
        assertThat(devSchedules.values())
                .allSatisfy(s -> assertThat(s.properties()).containsEntry("FlexibleTimeWindow", Map.of("Mode", "OFF")));
        assertThat(Templates.properties(devTemplate, "AWS::Scheduler::Schedule").values())
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p).containsEntry("FlexibleTimeWindow", Map.of("Mode", "OFF")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void everySchedule_retriesAsTheStageSays_thenSendsToTheStagesEncryptedSchedulerQueue() {
        RetrySettings retries = dev.config().retries();
        Object queueArn = Templates.getAtt(Templates.logicalId(dev.schedulerDeadLetters()), "Arn");
        for (Templates.Located schedule : devSchedules.values()) {
            Map<String, Object> target =
                    (Map<String, Object>) schedule.properties().get("Target");
            assertThat(target)
                    .containsEntry(
                            "RetryPolicy",
                            Map.of(
                                    "MaximumRetryAttempts",
                                    retries.schedulerRetryAttempts(),
                                    "MaximumEventAgeInSeconds",
                                    (int) retries.schedulerMaxEventAge().toSeconds()));
            Object dlq = ((Map<String, Object>) target.get("DeadLetterConfig")).get("Arn");
            assertThat(Templates.boundInParent(dev, devTemplate, schedule.stack(), dlq))
                    .isEqualTo(queueArn);
        }
        devTemplate.hasResourceProperties(
                "AWS::SQS::Queue", Map.of("SqsManagedSseEnabled", true, "MessageRetentionPeriod", 1209600));
    }

    @Test
    @SuppressWarnings("unchecked")
    void everySchedule_targetsTheLiveAliasOfItsJobsPool_withTheScheduledPayload() {
        for (JobDefinition job : CATALOG.jobs()) {
            Templates.Located schedule = devSchedules.get(job.id());
            Map<String, Object> target =
                    (Map<String, Object>) schedule.properties().get("Target");
            String alias =
                    Templates.logicalId(dev.pools().get(job.pool().name()).alias());

            assertThat(Templates.boundInParent(dev, devTemplate, schedule.stack(), target.get("Arn")))
                    .as(job.id())
                    .isEqualTo(Templates.ref(alias));
            assertThat(target.get("Input"))
                    .isEqualTo("{\"kind\":\"scheduled\",\"job\":\"" + job.id() + "\","
                            + "\"scheduled_time\":\"<aws.scheduler.scheduled-time>\","
                            + "\"execution_id\":\"<aws.scheduler.execution-id>\","
                            + "\"attempt_number\":\"<aws.scheduler.attempt-number>\","
                            + "\"schedule_arn\":\"<aws.scheduler.schedule-arn>\"}");
        }
        devTemplate.hasResourceProperties("AWS::Lambda::Alias", Map.of("Name", FunctionPoolConstruct.ALIAS));
    }

    @Test
    @SuppressWarnings("unchecked")
    void schedulerRoles_onePerPoolInTheStageStack_mayOnlyInvokeTheirAliasAndSendToTheQueue_forTheStagesGroup() {
        Object groupArn = Templates.getAtt(Templates.logicalId(dev.scheduleGroup()), "Arn");
        Object queueArn = Templates.getAtt(Templates.logicalId(dev.schedulerDeadLetters()), "Arn");
        Map<String, Map<String, Object>> roles = Templates.properties(devTemplate, "AWS::IAM::Role");
        List<Map<String, Object>> schedulerRoles = roles.values().stream()
                .filter(r -> r.get("AssumeRolePolicyDocument").toString().contains("scheduler.amazonaws.com"))
                .toList();

        assertThat(schedulerRoles).hasSize(dev.pools().size()).allSatisfy(role -> {
            List<Map<String, Object>> trust = (List<Map<String, Object>>)
                    ((Map<String, Object>) role.get("AssumeRolePolicyDocument")).get("Statement");
            assertThat(trust).singleElement().satisfies(st -> {
                Map<String, Object> equals =
                        (Map<String, Object>) ((Map<String, Object>) st.get("Condition")).get("StringEquals");
                assertThat(equals).containsEntry("aws:SourceArn", groupArn).containsKey("aws:SourceAccount");
            });
        });
        for (FunctionPoolConstruct pool : dev.pools().values()) {
            Object alias = Templates.ref(Templates.logicalId(pool.alias()));
            assertThat(schedulerPolicies())
                    .as("the policy of pool " + pool.getNode().getId() + "'s scheduler role")
                    .contains(List.of(
                            Map.of("Action", "lambda:InvokeFunction", "Effect", "Allow", "Resource", alias),
                            Map.of("Action", "sqs:SendMessage", "Effect", "Allow", "Resource", queueArn)));
        }
        for (JobsStack jobs : dev.jobStacks()) {
            Template template = Template.fromStack(jobs);
            assertThat(template.findResources("AWS::IAM::Role"))
                    .as("roles in a jobs stack")
                    .isEmpty();
            assertThat(template.findResources("AWS::IAM::Policy"))
                    .as("policies in a jobs stack")
                    .isEmpty();
        }
    }

    @SuppressWarnings("unchecked")
    private static List<List<Map<String, Object>>> schedulerPolicies() {
        return Templates.properties(devTemplate, "AWS::IAM::Policy").values().stream()
                .map(p -> (List<Map<String, Object>>) ((Map<String, Object>) p.get("PolicyDocument")).get("Statement"))
                .filter(st -> st.toString().contains("lambda:InvokeFunction"))
                .toList();
    }

    @Test
    void stageWithSchedulesOn_enablesEveryJobSchedule_andItsMissedRunAlarmActions() {
        assertThat(dev.config().flags().schedulesEnabled()).isTrue();
        assertThat(devSchedules.values())
                .allSatisfy(s -> assertThat(s.properties()).containsEntry("State", "ENABLED"));
        assertThat(missedRunAlarms(dev).values()).allSatisfy(a -> assertThat(a).containsEntry("ActionsEnabled", true));
    }

    @Test
    void stageWithSchedulesOff_disablesEveryJobSchedule_mutesMissedRunAlarms_andStillPingsEveryPool() {
        assertThat(offSchedules.keySet()).containsExactlyInAnyOrderElementsOf(CATALOG.ids());
        assertThat(offSchedules.values())
                .allSatisfy(s -> assertThat(s.properties()).containsEntry("State", "DISABLED"));
        assertThat(missedRunAlarms(off).values()).allSatisfy(a -> assertThat(a).containsEntry("ActionsEnabled", false));
        assertThat(off.keepWarm().keySet()).containsExactlyInAnyOrder("default", FixtureCatalog.POOL);
        Template.fromStack(off)
                .hasResourceProperties(
                        "AWS::Lambda::Function",
                        Map.of(
                                "Environment",
                                software.amazon.awscdk.assertions.Match.objectLike(Map.of(
                                        "Variables",
                                        software.amazon.awscdk.assertions.Match.objectLike(
                                                Map.of("PUNCTUAL_SCHEDULES_ENABLED", "false"))))));
    }

    @Test
    void keepWarm_pingsWeeklyOnlyThePoolWhoseJobsMayLeaveItIdleOverSevenDays() {
        // The pool hosts only the weekly destructive job (7 days and an hour across DST); default runs every 15 min.
        assertThat(dev.poolCadences().get(FixtureCatalog.POOL).mayIdleLongerThan(StageStack.KEEP_WARM_IF_IDLE_OVER))
                .isTrue();
        assertThat(dev.keepWarm().keySet()).containsExactly(FixtureCatalog.POOL);
        devTemplate.resourcePropertiesCountIs(
                "AWS::Scheduler::Schedule",
                Map.of(
                        "Name",
                        StageStack.KEEP_WARM_PREFIX + FixtureCatalog.POOL,
                        "GroupName",
                        "punctual-dev",
                        "ScheduleExpression",
                        StageStack.KEEP_WARM_EXPRESSION,
                        "ScheduleExpressionTimezone",
                        "UTC",
                        "State",
                        "ENABLED",
                        "Target",
                        software.amazon.awscdk.assertions.Match.objectLike(Map.of(
                                "Arn",
                                Templates.ref(Templates.logicalId(
                                        dev.pools().get(FixtureCatalog.POOL).alias())),
                                "Input",
                                "{\"kind\":\"ping\"}"))),
                1);
        devTemplate.resourceCountIs("AWS::Scheduler::Schedule", 1);
    }

    @Test
    void keepWarmSchedule_deliversWithItsPoolsSchedulerRole() {
        Map<String, Object> ping = Templates.properties(devTemplate, "AWS::Scheduler::Schedule").values().stream()
                .filter(p -> String.valueOf(p.get("Name")).startsWith(StageStack.KEEP_WARM_PREFIX))
                .findFirst()
                .orElseThrow();

        assertThat(((Map<?, ?>) ping.get("Target")).get("RoleArn"))
                .isEqualTo(Templates.getAtt(
                        Templates.logicalId(dev.schedulerRoles().of(FixtureCatalog.POOL)), "Arn"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void missedRunAlarm_perJob_watchesSilenceOverItsGapPlusSlack_orFallsBackToRecordedMisses() {
        Map<String, Map<String, Object>> alarms = missedRunAlarms(dev);
        assertThat(alarms).hasSize(CATALOG.jobs().size());

        Map<String, Object> daily = alarms.get(FixtureCatalog.DAILY);
        assertThat(daily)
                .containsEntry("ComparisonOperator", "LessThanThreshold")
                .containsEntry("Threshold", 1)
                .containsEntry("TreatMissingData", "breaching")
                .containsEntry("EvaluationPeriods", 27)
                .containsEntry("DatapointsToAlarm", 27);
        List<Map<String, Object>> metrics = (List<Map<String, Object>>) daily.get("Metrics");
        assertThat(metrics.get(0)).containsEntry("Expression", "FILL(pass, 0) + FILL(skip, 0) + FILL(fail, 0)");
        assertThat(metrics.subList(1, 4))
                .allSatisfy(m -> assertThat(m.toString())
                        .contains(
                                "Name=job, Value=" + FixtureCatalog.DAILY,
                                "Name=stage, Value=dev",
                                "Period=3600",
                                "Stat=Sum"));

        assertThat(alarms.get(FixtureCatalog.QUARTER_HOURLY))
                .containsEntry("EvaluationPeriods", 28)
                .containsEntry("TreatMissingData", "breaching");
        assertThat(alarms.get(FixtureCatalog.QUARTER_HOURLY).toString()).contains("Period=300");

        // Weekly with DST and slack exceeds the 7-day evaluation range: watch what later runs record.
        Map<String, Object> weekly = alarms.get(FixtureCatalog.DESTRUCTIVE);
        assertThat(weekly)
                .containsEntry("ComparisonOperator", "GreaterThanOrEqualToThreshold")
                .containsEntry("Threshold", 1)
                .containsEntry("EvaluationPeriods", 1)
                .containsEntry("TreatMissingData", "notBreaching");
        List<Map<String, Object>> late = (List<Map<String, Object>>) weekly.get("Metrics");
        assertThat(late.get(0)).containsEntry("Expression", "FILL(missed, 0) + FILL(catchup, 0) + FILL(overdue, 0)");
        assertThat(late.subList(1, 4).toString())
                .contains("MetricName=Missed", "MetricName=CatchUp", "MetricName=Overdue")
                .contains("Name=job, Value=" + FixtureCatalog.DESTRUCTIVE, "Name=stage, Value=dev");
    }

    /** Missed-run alarms by job id (their construct id is MissedRun-<job>). */
    private static JobCatalog optedIn(JobCatalog catalog) {
        JobCatalog all = new JobCatalog(catalog.jobs().stream()
                .map(j -> new JobDefinition(
                        j.id(),
                        j.schedule(),
                        j.lockGroup(),
                        j.catchUp(),
                        j.maxAttempts(),
                        j.retention(),
                        j.pool(),
                        j.destructive(),
                        j.externalDelivery(),
                        true,
                        j.safeToVerify(),
                        j.tables(),
                        j.description(),
                        j.factory()))
                .toList());
        return catalog.delivery().map(all::withDelivery).orElse(all);
    }

    private static Map<String, Map<String, Object>> missedRunAlarms(StageStack stage) {
        Map<String, Map<String, Object>> alarms = new java.util.LinkedHashMap<>();
        for (JobsStack jobs : stage.jobStacks()) {
            Map<String, Map<String, Object>> byLogicalId =
                    Templates.properties(Template.fromStack(jobs), "AWS::CloudWatch::Alarm");
            jobs.missedRunAlarms()
                    .forEach((job, alarm) -> alarms.put(job, byLogicalId.get(Templates.logicalId(alarm))));
        }
        return alarms;
    }
}
