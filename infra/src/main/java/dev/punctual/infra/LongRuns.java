package dev.punctual.infra;

import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.longrun.LongRunNames;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.stage.StageConfigException;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.Token;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.amazon.awscdk.services.stepfunctions.StateMachineType;
import software.constructs.Construct;

/**
 * What a stage deploys for its long jobs (decision 0039, 4 and 5), made only when the catalog has one:
 * per long job a STANDARD state machine ({@link LongJobDefinition}) named {@code punctual-<stage>-<job>},
 * with a role that may invoke only its pool's {@code live} alias, and an alarm on its failed and timed-out
 * executions; per pool hosting a long job, the grants to start, describe and stop its own long jobs'
 * executions, the state machines' ARN prefix in its environment, and a rule sending those executions'
 * FAILED, TIMED_OUT and ABORTED status changes to it; and one encrypted dead-letter queue for the status
 * changes EventBridge could not deliver.
 *
 * <p>The function and its state machines never refer to each other's tokens: a state machine names the
 * alias (so it depends on the function), and the function finds its state machines from the prefix and
 * its grants name their ARNs, both spelled from the stack's partition, region and account and the names
 * {@link LongRunNames} gives.
 */
final class LongRuns extends Construct {

    /** The function's variable holding {@code arn:<partition>:states:<region>:<account>:stateMachine:punctual-<stage>-}. */
    static final String STATE_MACHINE_PREFIX_VARIABLE =
            dev.punctual.longrun.stepfunctions.StepFunctionsExecutions.PREFIX_ENV;

    /** The statuses the function records an execution's outcome from (decision 0039, 5). */
    static final List<String> ENDED_STATUSES = List.of("FAILED", "TIMED_OUT", "ABORTED");

    static final String STATUS_CHANGE = "Step Functions Execution Status Change";

    private final Map<String, StateMachine> stateMachines = new LinkedHashMap<>();
    private final Map<String, Role> roles = new LinkedHashMap<>();
    private final Map<String, Rule> rules = new LinkedHashMap<>();
    private final Map<String, Alarm> alarms = new LinkedHashMap<>();
    private final LogGroup logGroup;
    private final Queue deadLetters;
    private final String stage;

    /**
     * @param pools every pool of the stage, by name: those hosting a long job get its grants and rule
     * @param alerting where each job's alarm goes
     */
    LongRuns(
            Construct scope,
            String id,
            StageConfig config,
            JobCatalog catalog,
            Map<String, FunctionPoolConstruct> pools,
            Alerting alerting) {
        super(scope, id);
        this.stage = config.stage();
        checkNames(stage, catalog);
        this.logGroup = LogGroup.Builder.create(this, "Logs")
                .retention(FunctionPoolConstruct.retention(config.logRetentionDays()))
                .removalPolicy(config.retainData() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY)
                .build();
        this.deadLetters = FunctionPoolConstruct.deadLetterQueue(this, "DeadLetters");
        for (String pool : pools(catalog)) {
            FunctionPoolConstruct hosting = pools.get(pool);
            List<JobDefinition> jobs =
                    catalog.inPool(pool).stream().filter(JobDefinition::isLong).toList();
            for (JobDefinition job : jobs) {
                stateMachine(job, hosting);
                alarms.put(
                        job.id(),
                        alerting.longRunFailed(
                                job.id(), stateMachines.get(job.id()).getStateMachineArn()));
            }
            allowExecutions(hosting, jobs);
            rules.put(pool, endedRule(config, pool, hosting, jobs));
        }
        allowSweep(catalog, pools);
    }

    /** True when the catalog has a long job, the only case in which a stage gets this construct. */
    static boolean needed(JobCatalog catalog) {
        return catalog.jobs().stream().anyMatch(JobDefinition::isLong);
    }

    /** The pools hosting a long job, in the catalog's pool order. */
    static List<String> pools(JobCatalog catalog) {
        return catalog.pools().stream()
                .map(pool -> pool.name())
                .filter(pool -> catalog.inPool(pool).stream().anyMatch(JobDefinition::isLong))
                .toList();
    }

    /** The catalog's long jobs' ids, in catalog order. */
    static List<String> longJobs(JobCatalog catalog) {
        return catalog.jobs().stream()
                .filter(JobDefinition::isLong)
                .map(JobDefinition::id)
                .toList();
    }

    /** {@code punctual-<stage>-<job>}: what {@link LongRunNames#stateMachine} gives for the stage's ids. */
    static String stateMachineName(String stage, String jobId) {
        return "punctual-" + stage + "-" + jobId;
    }

    /**
     * Refuses a long job whose state machine name {@link LongRunNames} would shorten and hash: the function
     * finds a state machine by the stage's prefix plus the job id, so the name must be exactly that. Stage
     * names (20 characters) and job ids (48) keep every pair within 80 today; this holds it if either grows.
     */
    static void checkNames(String stage, JobCatalog catalog) {
        for (String job : longJobs(catalog)) {
            String name = LongRunNames.stateMachine(stage, job);
            if (!name.equals(stateMachineName(stage, job))) {
                throw new StageConfigException("job " + job + " runs long, but its state machine's name "
                        + stateMachineName(stage, job) + " is not accepted in stage " + stage + "; expected at most "
                        + LongRunNames.MAX_NAME + " characters of [A-Za-z0-9_.-] (Step Functions' limit), it would"
                        + " be deployed as " + name + ", which the function would not find: shorten the job id or"
                        + " the stage name");
            }
        }
    }

    /**
     * The job's state machine, and its role: {@code lambda:InvokeFunction} on the pool's {@code live}
     * alias only (the alias the job's schedule targets), and the log delivery CDK grants for its logging.
     */
    private void stateMachine(JobDefinition job, FunctionPoolConstruct pool) {
        Role role = Role.Builder.create(this, "Role-" + job.id())
                .assumedBy(new ServicePrincipal("states.amazonaws.com"))
                .description("Punctual long job " + job.id() + ": invokes its pool's live alias; nothing else")
                .build();
        role.addToPolicy(PolicyStatement.Builder.create()
                .actions(List.of("lambda:InvokeFunction"))
                .resources(List.of(pool.alias().getFunctionArn()))
                .build());
        StateMachine machine = StateMachine.Builder.create(this, "StateMachine-" + job.id())
                .stateMachineName(stateMachineName(stage, job.id()))
                .stateMachineType(StateMachineType.STANDARD)
                .definitionBody(
                        DefinitionBody.fromString(LongJobDefinition.of(job).json()))
                .definitionSubstitutions(
                        Map.of(LongJobDefinition.FUNCTION_KEY, pool.alias().getFunctionArn()))
                .role(role)
                // Every event, without the states' input and output: the claim (its owner token) stays in
                // the ledger and the execution's history, not in a log group more people read.
                .logs(LogOptions.builder()
                        .destination(logGroup)
                        .level(LogLevel.ALL)
                        .includeExecutionData(false)
                        .build())
                .build();
        NagSuppressions.addResourceSuppressions(
                machine,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-SF2")
                        .reason("Long job state machine: no X-Ray tracing. Each chunk's attempts and the occurrence's"
                                + " outcome are recorded in the ledger, every state transition is logged (level ALL),"
                                + " and the function logs each step; tracing would add a cost per transition and"
                                + " xray:* on Resource * to the role")
                        .build()));
        NagSuppressions.addResourceSuppressions(
                role,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason("Long job state machine role: the CloudWatch Logs delivery actions Step Functions"
                                + " needs to log to a log group (CreateLogDelivery, GetLogDelivery, UpdateLogDelivery,"
                                + " DeleteLogDelivery, ListLogDeliveries, PutResourcePolicy, DescribeResourcePolicies,"
                                + " DescribeLogGroups) support no resource-level permissions (Resource *)")
                        .appliesTo(List.of("Resource::*"))
                        .build()),
                true);
        stateMachines.put(job.id(), machine);
        roles.put(job.id(), role);
    }

    /**
     * The pool's function starts its long jobs' executions (named per claim), reads them back and stops
     * them, and finds their state machines from {@value #STATE_MACHINE_PREFIX_VARIABLE}: only its own long
     * jobs' state machines and their executions.
     */
    private void allowExecutions(FunctionPoolConstruct pool, List<JobDefinition> jobs) {
        allow(
                pool,
                jobs,
                List.of("states:DescribeExecution", "states:StopExecution"),
                "Punctual pool: DescribeExecution and StopExecution on the executions of its own long jobs' state"
                        + " machines only (execution:punctual-<stage>-<job>:*), whose names each claim makes at"
                        + " runtime (decision 0039)");
    }

    /**
     * The watchdog's sweep (decision 0039, 5) describes the long jobs' executions (one schedule each, in
     * other pools than its own) and starts one whose starter died, under its name: those grants and the
     * prefix on the watchdog's pool. Its ledger rights on those jobs' items are {@link PoolLedgerKeys}'.
     */
    private void allowSweep(JobCatalog catalog, Map<String, FunctionPoolConstruct> pools) {
        Optional<JobDefinition> watchdog = catalog.jobs().stream()
                .filter(job -> job.id().equals(MissedRunWatchdog.ID))
                .findFirst();
        if (watchdog.isEmpty()) {
            return;
        }
        String pool = watchdog.get().pool().name();
        List<JobDefinition> elsewhere = catalog.jobs().stream()
                .filter(job ->
                        job.isLong() && !job.isPerEntity() && !job.pool().name().equals(pool))
                .toList();
        if (elsewhere.isEmpty()) {
            return;
        }
        allow(
                pools.get(pool),
                elsewhere,
                List.of("states:DescribeExecution"),
                "Punctual watchdog pool: DescribeExecution on the executions of the stage's long jobs' state"
                        + " machines only (execution:punctual-<stage>-<job>:*), whose names each claim makes at"
                        + " runtime; its sweep records those that ended unseen (decision 0039)");
    }

    /**
     * {@code states:StartExecution} on the jobs' state machines, {@code onExecutions} on their executions,
     * and the prefix the function finds them by; the one nag finding (the executions' wildcard) suppressed
     * with {@code why}.
     */
    private void allow(FunctionPoolConstruct pool, List<JobDefinition> jobs, List<String> onExecutions, String why) {
        Stack stack = Stack.of(this);
        List<String> machines = new ArrayList<>();
        List<String> executions = new ArrayList<>();
        List<String> findings = new ArrayList<>();
        for (JobDefinition job : jobs) {
            machines.add(stateMachineArn(stack, stateMachineName(stage, job.id())));
            executions.add(executionsArn(stack, stateMachineName(stage, job.id())));
            findings.add(finding(stack, "execution", stateMachineName(stage, job.id()) + ":*"));
        }
        pool.function()
                .addToRolePolicy(PolicyStatement.Builder.create()
                        .actions(List.of("states:StartExecution"))
                        .resources(machines)
                        .build());
        pool.function()
                .addToRolePolicy(PolicyStatement.Builder.create()
                        .actions(onExecutions)
                        .resources(executions)
                        .build());
        pool.function()
                .addEnvironment(STATE_MACHINE_PREFIX_VARIABLE, stateMachineArn(stack, stateMachineName(stage, "")));
        NagSuppressions.addResourceSuppressions(
                pool.function().getRole(),
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason(why)
                        .appliesTo(findings)
                        .build()),
                true);
    }

    /**
     * The pool's long jobs' executions that ended FAILED, TIMED_OUT or ABORTED, as Step Functions sends
     * them to the account's default bus, to the pool's {@code live} alias as they are. Delivery is retried
     * as the schedules' is (the stage's scheduler retry settings), then kept in {@link #deadLetters()}.
     */
    private Rule endedRule(StageConfig config, String pool, FunctionPoolConstruct hosting, List<JobDefinition> jobs) {
        Map<String, Object> detail = new TreeMap<>();
        detail.put("status", ENDED_STATUSES);
        detail.put(
                "stateMachineArn",
                jobs.stream()
                        .map(job -> stateMachines.get(job.id()).getStateMachineArn())
                        .toList());
        RetrySettings retries = config.retries();
        Rule rule = Rule.Builder.create(this, "Ended-" + pool)
                // Named so that verify knows the one EventBridge statement on the function is the stage's own.
                .ruleName(dev.punctual.longrun.LongRunNames.statusRule(stage, pool))
                .description("Punctual " + stage + ": failed, timed-out or aborted executions of pool " + pool
                        + "'s long jobs, to its function")
                .eventPattern(EventPattern.builder()
                        .source(List.of("aws.states"))
                        .detailType(List.of(STATUS_CHANGE))
                        .detail(detail)
                        .build())
                .build();
        rule.addTarget(LambdaFunction.Builder.create(hosting.alias())
                .retryAttempts(retries.schedulerRetryAttempts())
                .maxEventAge(Duration.seconds(retries.schedulerMaxEventAge().toSeconds()))
                .deadLetterQueue(deadLetters)
                .build());
        return rule;
    }

    /** {@code arn:<partition>:states:<region>:<account>:stateMachine:<name>}, from the stack, not a token. */
    static String stateMachineArn(Stack stack, String name) {
        return stack.formatArn(ArnComponents.builder()
                .service("states")
                .resource("stateMachine")
                .resourceName(name)
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME)
                .build());
    }

    /** Every execution of the state machine {@code name}: {@code ...:execution:<name>:*}. */
    static String executionsArn(Stack stack, String name) {
        return stack.formatArn(ArnComponents.builder()
                .service("states")
                .resource("execution")
                .resourceName(name + ":*")
                .arnFormat(ArnFormat.COLON_RESOURCE_NAME)
                .build());
    }

    /** A states wildcard resource as cdk-nag names its finding (pseudo parameters as {@code <AWS::Name>}). */
    static String finding(Stack stack, String resource, String name) {
        return "Resource::arn:" + pseudo(stack.getPartition(), "AWS::Partition") + ":states:"
                + pseudo(stack.getRegion(), "AWS::Region") + ":" + pseudo(stack.getAccount(), "AWS::AccountId") + ":"
                + resource + ":" + name;
    }

    private static String pseudo(String value, String name) {
        return Token.isUnresolved(value) ? "<" + name + ">" : value;
    }

    /** Each long job's state machine, by job id. */
    Map<String, StateMachine> stateMachines() {
        return stateMachines;
    }

    /** Each long job's state machine role, by job id. */
    Map<String, Role> roles() {
        return roles;
    }

    /** The status-change rule of each pool hosting a long job, by pool name. */
    Map<String, Rule> rules() {
        return rules;
    }

    /** Each long job's failed-or-timed-out alarm, by job id. */
    Map<String, Alarm> alarms() {
        return alarms;
    }

    /** The state machines' names, pool by pool in the catalog's pool order: what the operator's policy names. */
    List<String> stateMachineNames() {
        return stateMachines.keySet().stream()
                .map(job -> stateMachineName(stage, job))
                .toList();
    }

    /** Where the state machines log. */
    LogGroup logGroup() {
        return logGroup;
    }

    /** Where a status change EventBridge could not deliver to a pool's function waits (alarmed, 14 days). */
    Queue deadLetters() {
        return deadLetters;
    }
}
