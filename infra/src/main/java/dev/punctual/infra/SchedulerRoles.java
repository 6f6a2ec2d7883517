package dev.punctual.infra;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.PrincipalWithConditions;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.scheduler.IScheduleGroup;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * One role per function pool that the stage's schedules assume to deliver: it may invoke only that
 * pool's alias and send only to the scheduler's dead-letter queue, and only schedules of one group may
 * assume it (the stage's group; {@link EntityScheduling} makes another set for the entity group). Made
 * once in the stage stack rather than by each schedule's target in each jobs stack, so adding a pool's
 * first job to a shard adds no role there, and a stage has one role per pool however many shards hold
 * its jobs.
 */
final class SchedulerRoles extends Construct {

    private final Map<String, IRole> byPool = new LinkedHashMap<>();

    SchedulerRoles(
            Construct scope, String id, IScheduleGroup group, Map<String, IFunction> aliases, IQueue deadLetters) {
        this(scope, id, group, aliases, deadLetters, "the stage's schedules");
    }

    /**
     * @param group the only group whose schedules may assume the roles
     * @param aliases the pools to make a role for, each with the alias its role may invoke
     * @param schedules whose schedules they are, for the roles' descriptions
     */
    SchedulerRoles(
            Construct scope,
            String id,
            IScheduleGroup group,
            Map<String, IFunction> aliases,
            IQueue deadLetters,
            String schedules) {
        super(scope, id);
        Stack stack = Stack.of(this);
        aliases.forEach((pool, alias) -> {
            Role role = Role.Builder.create(this, "Pool-" + pool)
                    .assumedBy(new PrincipalWithConditions(
                            new ServicePrincipal("scheduler.amazonaws.com"),
                            Map.of(
                                    "StringEquals",
                                    new TreeMap<>(Map.of(
                                            "aws:SourceAccount", stack.getAccount(),
                                            "aws:SourceArn", group.getScheduleGroupArn())))))
                    .description("Punctual: " + schedules + " deliver to pool " + pool + " with this role")
                    .build();
            role.addToPolicy(allow("lambda:InvokeFunction", alias.getFunctionArn()));
            role.addToPolicy(allow("sqs:SendMessage", deadLetters.getQueueArn()));
            byPool.put(pool, role);
        });
    }

    private static PolicyStatement allow(String action, String resource) {
        return PolicyStatement.Builder.create()
                .actions(List.of(action))
                .resources(List.of(resource))
                .build();
    }

    IRole of(String pool) {
        return byPool.get(pool);
    }

    /** The roles by pool name, in the order of the aliases given. */
    Map<String, IRole> byPool() {
        return Collections.unmodifiableMap(byPool);
    }
}
