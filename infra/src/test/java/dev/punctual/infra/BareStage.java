package dev.punctual.infra;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.scheduler.ScheduleGroup;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;

/**
 * A bare stack holding nothing but imported references to a stage's resources, with literal ARNs, for
 * the constructs built from an {@link OperatedStage} (the operator's policy, the stage's outputs): what
 * they put in a template can then be compared with those literals.
 */
final class BareStage {

    static final String ACCOUNT = "111111111111";
    static final String REGION = "eu-central-1";
    static final String LEDGER = arn("dynamodb", "table/punctual-qa-ledger");
    static final String RESERVATIONS = arn("dynamodb", "table/punctual-qa-reservations");
    static final String MEMBERS = arn("dynamodb", "table/punctual-qa-members");
    static final String TOPIC = arn("sns", "punctual-qa-alarms");
    static final String SCHEDULER_DEAD_LETTERS = arn("sqs", "punctual-qa-scheduler-dlq");
    static final String ALERT_DEAD_LETTERS = arn("sqs", "punctual-qa-alert-dlq");
    static final List<String> POOLS = List.of("default", "maintenance");

    final Stack stack;
    final OperatedStage operated;

    BareStage() {
        this.stack = new Stack(
                new App(),
                "Bare",
                StackProps.builder()
                        .env(Environment.builder()
                                .account(ACCOUNT)
                                .region(REGION)
                                .build())
                        .build());
        Map<String, OperatedStage.Pool> pools = new LinkedHashMap<>();
        for (String pool : POOLS) {
            pools.put(
                    pool,
                    new OperatedStage.Pool(
                            Function.fromFunctionArn(stack, "Alias-" + pool, alias(pool)),
                            Function.fromFunctionArn(stack, "Function-" + pool, function(pool)),
                            LogGroup.fromLogGroupArn(stack, "Logs-" + pool, logGroup(pool)),
                            Queue.fromQueueArn(stack, "Failures-" + pool, failureQueue(pool))));
        }
        this.operated = new OperatedStage(
                "qa",
                Table.fromTableArn(stack, "Ledger", LEDGER),
                new TreeMap<>(Map.of(
                        "Reservations", Table.fromTableArn(stack, "Reservations", RESERVATIONS),
                        "Members", Table.fromTableArn(stack, "Members", MEMBERS))),
                ScheduleGroup.fromScheduleGroupName(stack, "Schedules", "punctual-qa"),
                Queue.fromQueueArn(stack, "SchedulerDeadLetters", SCHEDULER_DEAD_LETTERS),
                Topic.fromTopicArn(stack, "Topic", TOPIC),
                Queue.fromQueueArn(stack, "AlertDeadLetters", ALERT_DEAD_LETTERS),
                pools);
    }

    static String alias(String pool) {
        return arn("lambda", "function:punctual-qa-" + pool + ":live");
    }

    static String function(String pool) {
        return arn("lambda", "function:punctual-qa-" + pool);
    }

    static String logGroup(String pool) {
        return arn("logs", "log-group:/punctual/qa/" + pool + ":*");
    }

    static String failureQueue(String pool) {
        return arn("sqs", "punctual-qa-" + pool + "-failures");
    }

    private static String arn(String service, String resource) {
        return "arn:aws:" + service + ":" + REGION + ":" + ACCOUNT + ":" + resource;
    }
}
