package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.stage.StageConfigException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * A stage whose catalog has long jobs deploys, for each, a STANDARD state machine invoking its pool's
 * {@code live} alias, an alarm, and for each pool hosting one the grants, the state machines' prefix and
 * the status-change rule (decision 0039, 4 and 5); a stage without one deploys none of it.
 */
class LongRunsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final FunctionPool BATCH = new FunctionPool("batch", 512, Duration.ofMinutes(5));
    private static final FunctionPool REPORTS = new FunctionPool("reports", 512, Duration.ofMinutes(5));

    private static StageStack stage;
    private static Template template;

    @BeforeAll
    static void synth() {
        JobCatalog catalog = JobCatalog.of(
                        shortJob("report", FunctionPool.DEFAULT),
                        LongJobs.inPool("month-end", BATCH),
                        LongJobs.perEntity("tenant-close", BATCH),
                        shortJob("export", BATCH),
                        shortJob("summary", REPORTS))
                .plus(List.of(MissedRunWatchdog.definition()));
        stage = Synth.stage(Stages.named("dev"), catalog);
        template = Template.fromStack(stage);
    }

    @Test
    void eachLongJob_hasAStandardStateMachine_namedForStageAndJob_timingOutAtItsMaxDuration() throws Exception {
        Map<String, Map<String, Object>> machines =
                byName(Templates.properties(template, "AWS::StepFunctions::StateMachine"));

        assertThat(machines).containsOnlyKeys("punctual-dev-month-end", "punctual-dev-tenant-close");
        Map<String, Object> monthEnd = machines.get("punctual-dev-month-end");
        assertThat(monthEnd.get("StateMachineType")).isEqualTo("STANDARD");
        assertThat(definition(monthEnd).path("TimeoutSeconds").asLong())
                .isEqualTo(Duration.ofHours(6).toSeconds());
        assertThat(definition(machines.get("punctual-dev-tenant-close"))
                        .path("TimeoutSeconds")
                        .asLong())
                .isEqualTo(Duration.ofHours(2).toSeconds());
    }

    @Test
    void theDefinition_isTheJobs_withThePoolsLiveAliasAsTheFunctionItInvokes() throws Exception {
        Map<String, Object> monthEnd = byName(Templates.properties(template, "AWS::StepFunctions::StateMachine"))
                .get("punctual-dev-month-end");

        assertThat(monthEnd.get("DefinitionString"))
                .isEqualTo(LongJobDefinition.of(LongJobs.inPool("month-end", BATCH))
                        .json());
        assertThat(definition(monthEnd).at("/States/Chunks/MaxConcurrency").asInt())
                .isEqualTo(3);
        assertThat(monthEnd.get("DefinitionSubstitutions"))
                .isEqualTo(Map.of(LongJobDefinition.FUNCTION_KEY, Templates.ref(aliasOf("batch"))));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theStateMachinesRole_mayInvokeOnlyItsPoolsLiveAlias() {
        String role = Templates.logicalId(stage.longRuns().orElseThrow().roles().get("month-end"));
        List<Map<String, Object>> statements = inlineStatements(role);

        List<Map<String, Object>> lambda = statements.stream()
                .filter(s -> listed(s.get("Action")).stream()
                        .anyMatch(a -> a.toString().startsWith("lambda:")))
                .toList();
        assertThat(lambda).hasSize(1);
        assertThat(lambda.getFirst().get("Action")).isEqualTo("lambda:InvokeFunction");
        assertThat(lambda.getFirst().get("Resource")).isEqualTo(Templates.ref(aliasOf("batch")));
        // Everything else is the log delivery CDK grants for the state machine's logging.
        assertThat(statements)
                .filteredOn(s -> !lambda.contains(s))
                .allSatisfy(s -> assertThat(listed(s.get("Action")))
                        .allSatisfy(a -> assertThat(a.toString()).startsWith("logs:")));
        Map<String, Object> trust = (Map<String, Object>)
                ((List<Object>) ((Map<String, Object>) Templates.properties(template, "AWS::IAM::Role")
                                        .get(role)
                                        .get("AssumeRolePolicyDocument"))
                                .get("Statement"))
                        .getFirst();
        assertThat(trust.get("Principal")).isEqualTo(Map.of("Service", "states.amazonaws.com"));
    }

    @Test
    void thePoolsRole_startsDescribesAndStopsOnlyItsOwnLongJobsExecutions() {
        List<Map<String, Object>> batch = inlineStatements(roleOf("batch"));

        assertThat(resourcesOf(batch, "states:StartExecution"))
                .containsExactly(
                        stateMachineArn("punctual-dev-month-end"), stateMachineArn("punctual-dev-tenant-close"));
        assertThat(resourcesOf(batch, "states:DescribeExecution"))
                .containsExactly(executionsArn("punctual-dev-month-end"), executionsArn("punctual-dev-tenant-close"));
        assertThat(resourcesOf(batch, "states:StopExecution"))
                .isEqualTo(resourcesOf(batch, "states:DescribeExecution"));
        assertThat(inlineStatements(roleOf("reports")).toString()).doesNotContain("states:");
    }

    @Test
    void theWatchdogsPool_mayDescribeAndStartTheLongJobsWithOneSchedule_forItsSweep_butNeverStopThem() {
        List<Map<String, Object>> watchdog = inlineStatements(roleOf("default"));

        assertThat(resourcesOf(watchdog, "states:StartExecution"))
                .containsExactly(stateMachineArn("punctual-dev-month-end"));
        assertThat(resourcesOf(watchdog, "states:DescribeExecution"))
                .containsExactly(executionsArn("punctual-dev-month-end"));
        assertThat(resourcesOf(watchdog, "states:StopExecution")).isEmpty();
    }

    @Test
    void onlyAPoolHostingALongJob_findsItsStateMachinesByTheStagesPrefix_spelledFromTheStack() {
        Map<String, FunctionPoolConstruct> pools = stage.pools();

        assertThat(Templates.variables(template, pools.get("batch")).get(LongRuns.STATE_MACHINE_PREFIX_VARIABLE))
                .isEqualTo(join(
                        "arn:",
                        Templates.ref("AWS::Partition"),
                        ":states:",
                        Templates.ref("AWS::Region"),
                        ":",
                        Templates.ref("AWS::AccountId"),
                        ":stateMachine:punctual-dev-"));
        // The watchdog's pool (default) has it for its sweep (decision 0039, 5); a pool with neither does not.
        assertThat(Templates.variables(template, pools.get("default")))
                .containsKey(LongRuns.STATE_MACHINE_PREFIX_VARIABLE);
        assertThat(Templates.variables(template, pools.get("reports")))
                .doesNotContainKey(LongRuns.STATE_MACHINE_PREFIX_VARIABLE);
    }

    @Test
    @SuppressWarnings("unchecked")
    void thePoolsRule_sendsItsLongJobsFailedTimedOutAndAbortedExecutions_toItsAlias_withRetriesAndADeadLetterQueue() {
        Map<String, Map<String, Object>> rules = Templates.properties(template, "AWS::Events::Rule");
        List<Map<String, Object>> states = rules.values().stream()
                .filter(r -> r.get("EventPattern").toString().contains("aws.states"))
                .toList();

        assertThat(states).hasSize(1);
        Map<String, Object> rule = states.getFirst();
        assertThat(rule).doesNotContainKey("EventBusName");
        Map<String, Object> pattern = (Map<String, Object>) rule.get("EventPattern");
        assertThat(pattern.get("source")).isEqualTo(List.of("aws.states"));
        assertThat(pattern.get("detail-type")).isEqualTo(List.of("Step Functions Execution Status Change"));
        Map<String, Object> detail = (Map<String, Object>) pattern.get("detail");
        assertThat(detail.get("status")).isEqualTo(List.of("FAILED", "TIMED_OUT", "ABORTED"));
        assertThat(detail.get("stateMachineArn"))
                .isEqualTo(List.of(stateMachineRef("month-end"), stateMachineRef("tenant-close")));
        Map<String, Object> target = ((List<Map<String, Object>>) rule.get("Targets")).getFirst();
        assertThat(target.get("Arn")).isEqualTo(Templates.ref(aliasOf("batch")));
        assertThat(target).doesNotContainKey("Input");
        assertThat(target.get("RetryPolicy"))
                .isEqualTo(Map.of("MaximumRetryAttempts", 3, "MaximumEventAgeInSeconds", 3600));
        assertThat(target.get("DeadLetterConfig"))
                .isEqualTo(Map.of(
                        "Arn",
                        Templates.getAtt(
                                Templates.logicalId(
                                        stage.longRuns().orElseThrow().deadLetters()),
                                "Arn")));
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachLongJob_hasAnAlarmOnItsFailedAndTimedOutExecutions_toTheStagesTopic_namingTheJob() {
        Map<String, Object> alarm = Templates.properties(template, "AWS::CloudWatch::Alarm").values().stream()
                .filter(a -> "Punctual-dev-LongRun-month-end".equals(a.get("AlarmName")))
                .findFirst()
                .orElseThrow();

        List<Map<String, Object>> metrics = (List<Map<String, Object>>) alarm.get("Metrics");
        assertThat(metrics.toString())
                .contains(
                        "AWS/States", "ExecutionsFailed", "ExecutionsTimedOut", "FILL(failed, 0) + FILL(timedout, 0)");
        assertThat(metrics.stream()
                        .filter(m -> m.containsKey("MetricStat"))
                        .map(m -> ((Map<String, Object>) ((Map<String, Object>) m.get("MetricStat")).get("Metric"))
                                .get("Dimensions")))
                .containsOnly(List.of(Map.of("Name", "StateMachineArn", "Value", stateMachineRef("month-end"))));
        assertThat(alarm.get("AlarmDescription").toString())
                .contains("long job month-end", "docs/runbook.md#long-run-failed");
        assertThat(alarm.get("AlarmActions"))
                .isEqualTo(List.of(
                        Templates.ref(Templates.logicalId(stage.alerting().topic()))));
        assertThat(alarm.get("ComparisonOperator")).isEqualTo("GreaterThanOrEqualToThreshold");
    }

    @Test
    void theOperatorPolicy_listsDescribesAndStopsTheStagesLongJobsExecutions_andDescribesTheirStateMachines() {
        List<Map<String, Object>> operator = operatorStatements();

        assertThat(resourcesOf(operator, "states:ListExecutions"))
                .containsExactly(
                        stateMachineArn("punctual-dev-month-end"), stateMachineArn("punctual-dev-tenant-close"));
        assertThat(resourcesOf(operator, "states:DescribeExecution"))
                .containsExactly(executionsArn("punctual-dev-month-end"), executionsArn("punctual-dev-tenant-close"));
        assertThat(resourcesOf(operator, "states:StopExecution"))
                .isEqualTo(resourcesOf(operator, "states:DescribeExecution"));
        assertThat(resourcesOf(operator, "states:StartExecution")).isEmpty();
        // verify's long-jobs check reads each state machine, and lists the region's for extras.
        assertThat(resourcesOf(operator, "states:DescribeStateMachine"))
                .isEqualTo(resourcesOf(operator, "states:ListExecutions"));
        assertThat(resourcesOf(operator, "states:ListStateMachines")).containsExactly("*");
    }

    @Test
    void theOperatorPolicy_readsTheLongRunRecords_forStatus() {
        LedgerPolicy operator = LedgerPolicy.ofManagedPolicy(
                template,
                "StageOutputsOperator",
                Templates.logicalId(stage.tables().ledger()));

        for (String key : List.of("long#month-end", "chunk#month-end#2027-01-31T02:00:00Z", "long#tenant-close:acme")) {
            assertThat(operator.allows(access("dynamodb:GetItem", key))).as(key).isTrue();
            assertThat(operator.allows(access("dynamodb:Query", key))).as(key).isTrue();
            assertThat(operator.allows(access("dynamodb:PutItem", key))).as(key).isFalse();
        }
    }

    @Test
    void thePoolHostingALongJob_mayWriteAndReadItsRecords_andNoOtherJobs() {
        String ledger = Templates.logicalId(stage.tables().ledger());
        LedgerPolicy batch = LedgerPolicy.ofRole(template, roleOf("batch"), ledger);
        LedgerPolicy reports = LedgerPolicy.ofRole(template, roleOf("reports"), ledger);

        assertThat(batch.leadingKeysOf("dynamodb:Query"))
                .containsExactly(List.of(
                        "long#month-end",
                        "chunk#month-end#*",
                        "long#tenant-close",
                        "chunk#tenant-close#*",
                        "long#tenant-close:*",
                        "chunk#tenant-close:*"));
        for (String action : PoolLedgerPolicies.LONG_RUN_ACTIONS) {
            assertThat(batch.allows(access(action, "long#month-end")))
                    .as(action)
                    .isTrue();
            assertThat(batch.allows(access(action, "chunk#month-end#2027-01-31T02:00:00Z")))
                    .as(action)
                    .isTrue();
            assertThat(batch.allows(access(action, "chunk#tenant-close:acme#2027-01-31T02:00:00Z")))
                    .as(action)
                    .isTrue();
            assertThat(batch.allows(access(action, "long#tenant-close:acme")))
                    .as(action)
                    .isTrue();
            assertThat(batch.allows(access(action, "long#month-end-2")))
                    .as(action)
                    .isFalse();
            assertThat(reports.allows(access(action, "long#month-end")))
                    .as(action)
                    .isFalse();
        }
        assertThat(batch.allows(access("dynamodb:DeleteItem", "chunk#month-end#x")))
                .isFalse();
        assertThat(reports.leadingKeysOf("dynamodb:Query")).isEmpty();
    }

    @Test
    void aLongJob_mayAllowMoreAttemptsThanLambdasRetries_sinceItsStateMachineRetriesItsChunks() {
        JobCatalog catalog = JobCatalog.of(LongJobs.job("rebuild", Duration.ofHours(1), 2, 5));

        StageStack.checkAttemptsFitLambdaRetries(Stages.named("dev"), catalog);

        assertThatThrownBy(() -> StageStack.checkAttemptsFitLambdaRetries(
                        Stages.named("dev"),
                        JobCatalog.of(JobDefinition.builder("report")
                                .schedule("0 * * * *", "UTC")
                                .maxAttempts(5)
                                .job(services -> context -> JobResult.empty())
                                .build())))
                .isInstanceOf(StageConfigException.class);
    }

    @Test
    void aStateMachineNameTheRuntimeWouldNotFind_isRefusedAtSynth_namingTheJob() {
        JobCatalog catalog = JobCatalog.of(LongJobs.job("a".repeat(48), Duration.ofHours(1), 2, 2));

        LongRuns.checkNames("dev", catalog);
        assertThatThrownBy(() -> LongRuns.checkNames("s".repeat(30), catalog))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining("job " + "a".repeat(48))
                .hasMessageContaining("80 characters");
    }

    @Test
    void aStageWithoutALongJob_deploysNoStateMachine_noStatusRule_andNoPrefix() {
        StageStack plain = Synth.stage(
                Stages.named("dev"),
                JobCatalog.of(shortJob("report", FunctionPool.DEFAULT), shortJob("export", BATCH))
                        .plus(List.of(MissedRunWatchdog.definition())));
        Template plainTemplate = Template.fromStack(plain);

        assertThat(plain.longRuns()).isEmpty();
        assertThat(plainTemplate.findResources("AWS::StepFunctions::StateMachine"))
                .isEmpty();
        assertThat(Templates.properties(plainTemplate, "AWS::Events::Rule").values())
                .noneSatisfy(r -> assertThat(r.get("EventPattern").toString()).contains("aws.states"));
        plain.pools()
                .values()
                .forEach(pool -> assertThat(Templates.variables(plainTemplate, pool))
                        .doesNotContainKey(LongRuns.STATE_MACHINE_PREFIX_VARIABLE));
        assertThat(plainTemplate.toJSON().toString()).doesNotContain("states:");
    }

    @Test
    void twoSynthsOfAStageWithLongJobs_writeTheSameTemplate() {
        JobCatalog catalog = JobCatalog.of(
                        LongJobs.inPool("month-end", BATCH), LongJobs.perEntity("tenant-close", BATCH))
                .plus(List.of(MissedRunWatchdog.definition()));

        assertThat(Template.fromStack(Synth.stage(Stages.named("dev"), catalog)).toJSON())
                .isEqualTo(Template.fromStack(Synth.stage(Stages.named("dev"), catalog))
                        .toJSON());
    }

    private static LedgerRequests.Access access(String action, String partitionKey) {
        return new LedgerRequests.Access(action, partitionKey, "x", java.util.Set.of(), "NONE");
    }

    private static JobDefinition shortJob(String id, FunctionPool pool) {
        return JobDefinition.builder(id)
                .schedule("0 * * * *", "UTC")
                .pool(pool)
                .job(services -> context -> JobResult.empty())
                .build();
    }

    private static JsonNode definition(Map<String, Object> machine) throws Exception {
        return JSON.readTree((String) machine.get("DefinitionString"));
    }

    private static Map<String, Map<String, Object>> byName(Map<String, Map<String, Object>> machines) {
        Map<String, Map<String, Object>> byName = new java.util.TreeMap<>();
        machines.values().forEach(m -> byName.put((String) m.get("StateMachineName"), m));
        return byName;
    }

    private static String aliasOf(String pool) {
        return Templates.logicalId(stage.pools().get(pool).alias());
    }

    private static String roleOf(String pool) {
        return Templates.logicalId(stage.pools().get(pool).function().getRole());
    }

    private static Map<String, Object> stateMachineRef(String job) {
        return Templates.ref(Templates.logicalId(
                stage.longRuns().orElseThrow().stateMachines().get(job)));
    }

    private static Map<String, Object> stateMachineArn(String name) {
        return join(
                "arn:",
                Templates.ref("AWS::Partition"),
                ":states:",
                Templates.ref("AWS::Region"),
                ":",
                Templates.ref("AWS::AccountId"),
                ":stateMachine:" + name);
    }

    private static Map<String, Object> executionsArn(String name) {
        return join(
                "arn:",
                Templates.ref("AWS::Partition"),
                ":states:",
                Templates.ref("AWS::Region"),
                ":",
                Templates.ref("AWS::AccountId"),
                ":execution:" + name + ":*");
    }

    private static Map<String, Object> join(Object... parts) {
        return Map.of("Fn::Join", List.of("", List.of(parts)));
    }

    /** The statements of the role's inline policies. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> inlineStatements(String role) {
        List<Map<String, Object>> statements = new ArrayList<>();
        Templates.properties(template, "AWS::IAM::Policy").values().stream()
                .filter(p -> listed(p.get("Roles")).contains(Templates.ref(role)))
                .forEach(p -> statements.addAll(
                        (List<Map<String, Object>>) ((Map<String, Object>) p.get("PolicyDocument")).get("Statement")));
        return statements;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> operatorStatements() {
        List<Map<String, Object>> statements = new ArrayList<>();
        Templates.properties(template, "AWS::IAM::ManagedPolicy").forEach((id, p) -> {
            if (id.startsWith("StageOutputsOperator")) {
                statements.addAll(
                        (List<Map<String, Object>>) ((Map<String, Object>) p.get("PolicyDocument")).get("Statement"));
            }
        });
        assertThat(statements).isNotEmpty();
        return statements;
    }

    /** Every resource of the statements allowing {@code action}, in order. */
    private static List<Object> resourcesOf(List<Map<String, Object>> statements, String action) {
        List<Object> resources = new ArrayList<>();
        statements.stream()
                .filter(s -> listed(s.get("Action")).contains(action))
                .forEach(s -> resources.addAll(listed(s.get("Resource"))));
        return resources;
    }

    private static List<Object> listed(Object value) {
        return value instanceof List<?> list ? new ArrayList<>(list) : value == null ? List.of() : List.of(value);
    }
}
