package dev.punctual.infra;

import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.scheduler.ScheduleGroup;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * What a stage holds for its per-entity jobs (docs/entities.md), made only when the catalog has one:
 * the entity schedule group {@code punctual-<stage>-entities} that the team's services create one
 * schedule per entity in at runtime, one scheduler role per pool hosting a per-entity job that those
 * schedules deliver with, and the managed policy the services put them with. The stage deploys no
 * schedule into the group: its schedules are the team's data, not the stack's.
 */
final class EntityScheduling extends Construct {

    /** The actions on one schedule that the service policy grants, only on the entity group's schedules. */
    static final List<String> SCHEDULE_ACTIONS = List.of(
            "scheduler:CreateSchedule",
            "scheduler:DeleteSchedule",
            "scheduler:GetSchedule",
            "scheduler:UpdateSchedule");

    private final String groupName;
    private final ScheduleGroup group;
    private final SchedulerRoles roles;
    private final ManagedPolicy servicePolicy;
    private final IQueue deadLetters;

    /**
     * @param stage the stage's name
     * @param aliases the {@code live} alias of each pool hosting a per-entity job, by pool name ({@link #pools})
     * @param deadLetters the scheduler's dead-letter queue, which the entity schedules' roles may send to
     * @param ledgerArn the stage's ledger table, whose entity items a delete tombstones and a put clears
     * @param perEntityJobs the ids of the catalog's per-entity jobs ({@link #perEntityJobs})
     */
    EntityScheduling(
            Construct scope,
            String id,
            String stage,
            Map<String, IFunction> aliases,
            IQueue deadLetters,
            String ledgerArn,
            List<String> perEntityJobs) {
        super(scope, id);
        Stack stack = Stack.of(this);
        this.groupName = EntityScheduleName.group(stage);
        this.deadLetters = deadLetters;
        this.group = ScheduleGroup.Builder.create(this, "Group")
                .scheduleGroupName(groupName)
                // Retained, unlike the stage's own group: its schedules are runtime data (one per tenant),
                // which the stack never deploys and cannot put back. A stack replaced or destroyed by
                // accident must not delete every tenant's schedule with it. The price: deploying the stage
                // again after a destroy (or after removing its last per-entity job) fails with "already
                // exists" until the group is deleted by hand (docs/entities.md, docs/deploy.md).
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        // Roles of their own: the job group's roles trust only that group's schedules.
        this.roles = new SchedulerRoles(
                this, "Roles", group, aliases, deadLetters, "the stage's entity schedules (group " + groupName + ")");
        ArnComponents schedules = ArnComponents.builder()
                .service("scheduler")
                .resource("schedule")
                .resourceName(groupName + "/*")
                .build();
        List<String> roleArns = new ArrayList<>();
        roles.byPool().values().forEach(role -> roleArns.add(role.getRoleArn()));
        this.servicePolicy = ManagedPolicy.Builder.create(this, "ServicePolicy")
                .description("Punctual stage " + stage + ": a team's service puts, reads, lists and deletes the"
                        + " stage's entity schedules (group " + groupName + ") and marks deleted entities on the"
                        + " ledger (docs/entities.md)")
                .statements(List.of(
                        allow(SCHEDULE_ACTIONS, List.of(stack.formatArn(schedules))),
                        // ListSchedules has no resource-level permissions; the client names the group.
                        allow(List.of("scheduler:ListSchedules"), List.of("*")),
                        // A create or update names the schedule's role, which the caller must be allowed
                        // to pass: the entity roles only, and only to EventBridge Scheduler.
                        PolicyStatement.Builder.create()
                                .actions(List.of("iam:PassRole"))
                                .resources(roleArns)
                                .conditions(Map.of(
                                        "StringEquals", Map.of("iam:PassedToService", "scheduler.amazonaws.com")))
                                .build(),
                        tombstones(ledgerArn, perEntityJobs)))
                .build();
        NagSuppressions.addResourceSuppressions(
                servicePolicy,
                List.of(
                        NagPackSuppression.builder()
                                .id("AwsSolutions-IAM5")
                                .reason("Entity service policy: CreateSchedule, UpdateSchedule, DeleteSchedule and"
                                        + " GetSchedule are limited to the schedules of the stage's entity group, "
                                        + groupName + "/*, whose names the team's entities make at runtime")
                                .appliesTo(List.of(OperatorPolicy.finding(stack, schedules)))
                                .build(),
                        NagPackSuppression.builder()
                                .id("AwsSolutions-IAM5")
                                .reason("Entity service policy: ListSchedules supports no resource-level permissions"
                                        + " (Resource *); it lists schedule names and states only, and the client"
                                        + " filters by the entity group")
                                .appliesTo(List.of("Resource::*"))
                                .build()));
    }

    /**
     * A delete writes the entity's tombstone on its ledger item before it deletes the schedule, and a put
     * clears it (decision 0029, 8): UpdateItem only, only on the entity items of the catalog's per-entity
     * jobs ({@code dynamodb:LeadingKeys} {@code lock#<job>:*}), naming only the tombstone's attributes
     * ({@code dynamodb:Attributes}), so the service can neither take a lease, move a cursor nor touch a
     * run item. Nothing else on the table: no read (a tombstone whose answer is lost is not read back;
     * the delete fails and is repeated, which is idempotent). ReturnValues stays unrestricted: the ledger
     * adapter asks for the item (ALL_NEW, ALL_OLD on a refusal), the entity's lease and cursor, no secret.
     */
    private static PolicyStatement tombstones(String ledgerArn, List<String> perEntityJobs) {
        return PolicyStatement.Builder.create()
                .actions(List.of("dynamodb:UpdateItem"))
                .resources(List.of(ledgerArn))
                .conditions(Map.of(
                        "ForAllValues:StringLike",
                        // Sorted: Map.of's order changes from one JVM to the next, and so would the template.
                        new TreeMap<>(Map.of(
                                "dynamodb:LeadingKeys",
                                perEntityJobs.stream()
                                        .map(LedgerLayout::entityItems)
                                        .toList(),
                                "dynamodb:Attributes",
                                LedgerLayout.TOMBSTONE_ATTRIBUTES))))
                .build();
    }

    /** The ids of the catalog's per-entity jobs, in catalog order: whose entity items the policy names. */
    static List<String> perEntityJobs(JobCatalog catalog) {
        return catalog.jobs().stream()
                .filter(JobDefinition::isPerEntity)
                .map(JobDefinition::id)
                .toList();
    }

    /** True when the catalog has a per-entity job, the only case in which a stage gets this construct. */
    static boolean needed(JobCatalog catalog) {
        return catalog.jobs().stream().anyMatch(JobDefinition::isPerEntity);
    }

    /** The pools hosting a per-entity job, in the catalog's pool order. */
    static List<String> pools(JobCatalog catalog) {
        return catalog.pools().stream()
                .map(pool -> pool.name())
                .filter(pool -> catalog.inPool(pool).stream().anyMatch(JobDefinition::isPerEntity))
                .toList();
    }

    private static PolicyStatement allow(List<String> actions, List<String> resources) {
        return PolicyStatement.Builder.create()
                .actions(actions)
                .resources(resources)
                .build();
    }

    /** {@code punctual-<stage>-entities}. */
    String groupName() {
        return groupName;
    }

    ScheduleGroup group() {
        return group;
    }

    /** The role each pool's entity schedules deliver with, by pool name. */
    Map<String, IRole> roles() {
        return new LinkedHashMap<>(roles.byPool());
    }

    ManagedPolicy servicePolicy() {
        return servicePolicy;
    }

    /** The scheduler's dead-letter queue, which an entity schedule's DeadLetterConfig names. */
    IQueue deadLetters() {
        return deadLetters;
    }
}
