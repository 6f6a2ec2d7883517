package dev.punctual.cli.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.stage.StageOutputs;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.iam.model.NoSuchEntityException;
import software.amazon.awssdk.services.scheduler.model.ResourceNotFoundException;

/**
 * A stage whose catalog has a per-entity job has its entity schedule group and the services' managed
 * policy, and the policy grants exactly what docs/entities.md ("The stage") says: the four schedule
 * actions on the entity group's schedules only, {@code scheduler:ListSchedules} on {@code *}, and
 * {@code iam:PassRole} on exactly the entity scheduler roles, only to EventBridge Scheduler. A grant
 * more (on the stage's own group, say) fails as much as one missing: the policy is attached to the
 * team's services.
 *
 * @param group the entity group the stage's name gives ({@link EntityScheduleName#group})
 * @param outputGroup the stack's output {@code EntityScheduleGroupName}, if any
 * @param groupState the group's state as GetScheduleGroup answers (ACTIVE), empty when it does not exist
 * @param policyArn the stack's output {@code EntityServicePolicyArn}, if any
 * @param policy the policy's default version's document, empty when the policy does not exist
 * @param schedulesArn the entity group's schedules, {@code arn:P:scheduler:R:A:schedule/GROUP/*}
 * @param roles the stack's {@code EntitySchedulerRole<Pool>} outputs, by pool
 */
public record EntityGroupCheck(
        String group,
        Optional<String> outputGroup,
        Optional<String> groupState,
        Optional<String> policyArn,
        Optional<JsonNode> policy,
        String schedulesArn,
        Map<String, String> roles)
        implements Check {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The schedule actions the services may take, only on the entity group's schedules (infra's EntityScheduling). */
    static final List<String> SCHEDULE_ACTIONS = List.of(
            "scheduler:CreateSchedule",
            "scheduler:DeleteSchedule",
            "scheduler:GetSchedule",
            "scheduler:UpdateSchedule");

    public EntityGroupCheck {
        roles = new TreeMap<>(roles);
    }

    /**
     * Reads the stack's entity outputs, the group (GetScheduleGroup) and the policy's default version
     * (GetPolicy, GetPolicyVersion).
     *
     * @param pools the pools hosting a per-entity job: each has a scheduler role
     */
    public static EntityGroupCheck read(StageAws aws, StageInventory deployed, Collection<String> pools) {
        // The stack's outputs as CloudFormation lists them (the package reads the stack itself, as StackResources
        // does).
        Map<String, String> outputs = new TreeMap<>();
        aws.cloudFormation()
                .describeStacks(r -> r.stackName(deployed.stackName()))
                .stacks()
                .getFirst()
                .outputs()
                .forEach(o -> outputs.put(o.outputKey(), o.outputValue()));
        String group = EntityScheduleName.group(deployed.stage());
        Optional<String> outputGroup = Optional.ofNullable(outputs.get(StageOutputs.ENTITY_SCHEDULE_GROUP));
        Optional<String> state;
        try {
            state = Optional.of(aws.scheduler()
                    .getScheduleGroup(r -> r.name(outputGroup.orElse(group)))
                    .stateAsString());
        } catch (ResourceNotFoundException e) {
            state = Optional.empty();
        }
        Optional<String> policyArn = Optional.ofNullable(outputs.get(StageOutputs.ENTITY_SERVICE_POLICY));
        Optional<JsonNode> policy = policyArn.flatMap(arn -> document(aws, arn));
        Map<String, String> roles = new TreeMap<>();
        for (String pool : pools) {
            String role = outputs.get(StageOutputs.entitySchedulerRole(pool));
            if (role != null) {
                roles.put(pool, role);
            } else {
                roles.put(pool, "");
            }
        }
        String partition = deployed.stackId().split(":")[1];
        String schedules = "arn:" + partition + ":scheduler:" + deployed.region() + ":" + deployed.account()
                + ":schedule/" + group + "/*";
        return new EntityGroupCheck(group, outputGroup, state, policyArn, policy, schedules, roles);
    }

    private static Optional<JsonNode> document(StageAws aws, String arn) {
        try {
            String version = aws.iam().getPolicy(r -> r.policyArn(arn)).policy().defaultVersionId();
            String text = aws.iam()
                    .getPolicyVersion(r -> r.policyArn(arn).versionId(version))
                    .policyVersion()
                    .document();
            // IAM answers the document URL-encoded (RFC 3986); a stand-in may answer it as it was given.
            String json = text.strip().startsWith("{") ? text : URLDecoder.decode(text, StandardCharsets.UTF_8);
            return Optional.of(JSON.readTree(json));
        } catch (NoSuchEntityException e) {
            return Optional.empty();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("policy " + arn + ": its document is not JSON: " + e.getOriginalMessage());
        }
    }

    @Override
    public String name() {
        return "entity-group";
    }

    @Override
    public CheckResult result() {
        String checked = "the entity group " + group + " exists and the services' policy grants only the entity"
                + " group's schedules, ListSchedules and passing the entity roles to the scheduler";
        String redeploy = "deploy the stage again with this catalog (cdk deploy); never edit the policy by hand"
                + " (docs/entities.md, \"The stage\")";
        List<String> problems = new ArrayList<>();
        if (outputGroup.isEmpty()) {
            problems.add("the stack has no output " + StageOutputs.ENTITY_SCHEDULE_GROUP);
        } else if (!outputGroup.get().equals(group)) {
            problems.add("output " + StageOutputs.ENTITY_SCHEDULE_GROUP + " names " + outputGroup.get() + " (expected "
                    + group + ")");
        }
        if (groupState.isEmpty()) {
            problems.add("group " + outputGroup.orElse(group) + " does not exist");
        } else if (!groupState.get().equals("ACTIVE")) {
            problems.add("group " + outputGroup.orElse(group) + " is " + groupState.get() + " (expected ACTIVE)");
        }
        roles.forEach((pool, role) -> {
            if (role.isEmpty()) {
                problems.add("the stack has no output " + StageOutputs.entitySchedulerRole(pool));
            }
        });
        if (policyArn.isEmpty()) {
            problems.add("the stack has no output " + StageOutputs.ENTITY_SERVICE_POLICY);
        } else if (policy.isEmpty()) {
            problems.add("policy " + policyArn.get() + " does not exist");
        } else {
            problems.addAll(grants(policy.get()));
        }
        if (!problems.isEmpty()) {
            return CheckResult.fail(name(), checked, String.join("; ", problems), redeploy);
        }
        return CheckResult.pass(
                name(),
                checked,
                "group " + group + " ACTIVE; policy " + policyArn.get() + " grants 3 statements as documented, "
                        + roles.size() + " entity role(s)");
    }

    /** One statement as compared: its effect, actions, resources and condition, in a fixed order. */
    private record Grant(String effect, Set<String> actions, Set<String> resources, JsonNode condition) {
        @Override
        public String toString() {
            return effect + " " + actions + " on " + resources + (condition.isEmpty() ? "" : " if " + condition);
        }
    }

    /** What the policy grants beyond, and short of, the documented statements. */
    private List<String> grants(JsonNode document) {
        List<Grant> expected = List.of(
                new Grant("Allow", new TreeSet<>(SCHEDULE_ACTIONS), Set.of(schedulesArn), JSON.createObjectNode()),
                new Grant("Allow", Set.of("scheduler:ListSchedules"), Set.of("*"), JSON.createObjectNode()),
                new Grant(
                        "Allow",
                        Set.of("iam:PassRole"),
                        new TreeSet<>(roles.values()),
                        JSON.createObjectNode()
                                .set(
                                        "StringEquals",
                                        JSON.createObjectNode()
                                                .put("iam:PassedToService", "scheduler.amazonaws.com"))));
        List<Grant> found = new ArrayList<>();
        JsonNode statements = document.path("Statement");
        for (JsonNode statement :
                statements.isArray() ? statements : JSON.createArrayNode().add(statements)) {
            found.add(new Grant(
                    statement.path("Effect").asText(),
                    strings(statement.path("Action")),
                    strings(statement.path("Resource")),
                    statement.path("Condition").isObject() ? statement.path("Condition") : JSON.createObjectNode()));
        }
        List<String> problems = new ArrayList<>();
        for (Grant want : expected) {
            if (!found.contains(want)) {
                problems.add("policy " + policyArn.orElseThrow() + " lacks: " + want);
            }
        }
        for (Grant has : found) {
            if (!expected.contains(has)) {
                problems.add("policy " + policyArn.orElseThrow() + " also grants: " + has);
            }
        }
        return problems;
    }

    /** An IAM field that is one string or a list of them, as a sorted set. */
    private static Set<String> strings(JsonNode node) {
        Set<String> out = new TreeSet<>();
        if (node.isArray()) {
            node.forEach(n -> out.add(n.asText()));
        } else if (!node.isMissingNode() && !node.isNull()) {
            out.add(node.asText());
        }
        return out;
    }
}
