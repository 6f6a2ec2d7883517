package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.stage.StageOutputs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * The operator's policy on a bare stack holding only imported references to a stage's resources: for
 * each action it grants, exactly the resources it grants it on (StageOutputsTest checks the policy a
 * whole stage outputs).
 */
class OperatorPolicyTest {

    private static Template template;
    private static Map<String, Set<String>> grants;
    private static List<Map<String, Object>> statements;

    @BeforeAll
    static void synth() {
        BareStage bare = new BareStage();
        new OperatorPolicy(bare.stack, "Operator", bare.operated);
        template = Template.fromStack(bare.stack);
        statements = statements(template);
        grants = grants(statements);
    }

    @Test
    void bareStack_holdsOneManagedPolicy_describedForItsStage_andNothingElse() {
        template.resourceCountIs("AWS::IAM::ManagedPolicy", 1);
        assertThat(template.toJSON().get("Resources").toString())
                .doesNotContain("AWS::IAM::Role", "AWS::IAM::Policy\"");
        assertThat(Templates.properties(template, "AWS::IAM::ManagedPolicy")
                        .values()
                        .iterator()
                        .next()
                        .get("Description"))
                .asString()
                .startsWith("Punctual stage qa:");
    }

    @Test
    void invokeAndConfiguration_areGrantedOnTheLiveAliasesOfEveryPool_only() {
        Set<String> aliases =
                new TreeSet<>(BareStage.POOLS.stream().map(BareStage::alias).toList());

        assertThat(grants.get("lambda:InvokeFunction")).isEqualTo(aliases);
        assertThat(grants.get("lambda:GetFunctionConfiguration")).isEqualTo(aliases);
    }

    @Test
    void verifysAccessAndResourceReads_areGrantedOnTheStagesFunctionsAliasesAndPunctualsStacks_only() {
        Set<String> functions =
                new TreeSet<>(BareStage.POOLS.stream().map(BareStage::function).toList());
        Set<String> functionsAndAliases = new TreeSet<>(functions);
        BareStage.POOLS.forEach(pool -> functionsAndAliases.add(BareStage.alias(pool)));

        assertThat(grants.get("lambda:GetPolicy")).isEqualTo(functionsAndAliases);
        assertThat(grants.get("lambda:ListFunctionUrlConfigs")).isEqualTo(functions);
        assertThat(grants.get("lambda:ListEventSourceMappings")).containsExactly("*");
        assertThat(grants.get("cloudformation:ListStackResources"))
                .containsExactly("arn:{Ref=AWS::Partition}:cloudformation:" + BareStage.REGION + ":" + BareStage.ACCOUNT
                        + ":stack/" + StageOutputs.STACK_PREFIX + "*/*");
        assertThat(grants).doesNotContainKey("sqs:ListQueues");
    }

    @Test
    void maintenanceWrites_nameTheLeaseAttributesOfLockItemsOnly_neverTheFenceNorAJobsCursorOrSlot() {
        Map<String, Object> update = statements.stream()
                .filter(s -> actions(s).contains("dynamodb:UpdateItem"))
                .findFirst()
                .orElseThrow();

        assertThat(update.get("Condition"))
                .isEqualTo(Map.of(
                        "ForAllValues:StringLike",
                        Map.of("dynamodb:LeadingKeys", List.of("lock#*")),
                        "ForAllValues:StringEquals",
                        Map.of(
                                "dynamodb:Attributes",
                                List.of(
                                        "pk",
                                        "sk",
                                        "leaseOwner",
                                        "leaseUntil",
                                        "leaseAcquiredAt",
                                        "leaseHolder",
                                        "leaseKind",
                                        "maintReason",
                                        "maintBy",
                                        "maintCommand"))));
    }

    @Test
    void skipWrites_nameTheMarksOfLockItems_andASkipsRunItem_only() {
        Map<String, Object> marks = statements.stream()
                .filter(s -> actions(s).contains("dynamodb:UpdateItem"))
                .skip(1)
                .findFirst()
                .orElseThrow();
        assertThat(marks.get("Condition"))
                .isEqualTo(Map.of(
                        "ForAllValues:StringLike",
                        Map.of("dynamodb:LeadingKeys", List.of("lock#*")),
                        "ForAllValues:StringEquals",
                        Map.of("dynamodb:Attributes", List.of("pk", "sk", "skips", "occ", "occStatus"))));
        Map<String, Object> put = statements.stream()
                .filter(s -> actions(s).contains("dynamodb:PutItem"))
                .findFirst()
                .orElseThrow();
        assertThat(actions(put)).containsExactly("dynamodb:PutItem");
        assertThat(put.get("Condition").toString()).contains("dynamodb:LeadingKeys=[run#*]");
        Map<String, Object> delete = statements.stream()
                .filter(s -> actions(s).contains("dynamodb:DeleteItem"))
                .findFirst()
                .orElseThrow();
        assertThat(delete.get("Condition"))
                .isEqualTo(Map.of(
                        "ForAllValues:StringLike",
                        Map.of("dynamodb:LeadingKeys", List.of("run#*")),
                        "ForAllValues:StringEquals",
                        Map.of("dynamodb:Attributes", List.of("pk", "sk", "skipBy", "skipActedAt"))));
    }

    @Test
    void pauseWrites_nameThePauseMarkOfLockItems_only() {
        Map<String, Object> marks = statements.stream()
                .filter(s -> actions(s).contains("dynamodb:UpdateItem"))
                .skip(2)
                .findFirst()
                .orElseThrow();

        assertThat(marks.get("Condition")).isEqualTo(PAUSE_MARK_OF_LOCK_ITEMS);
    }

    /** A grant's condition that names lock items and the pause mark's attributes, nothing else (decision 0040). */
    private static final Map<String, Object> PAUSE_MARK_OF_LOCK_ITEMS = Map.of(
            "ForAllValues:StringLike",
            Map.of("dynamodb:LeadingKeys", List.of("lock#*")),
            "ForAllValues:StringEquals",
            Map.of(
                    "dynamodb:Attributes",
                    List.of("pk", "sk", "pausedFrom", "pausedTo", "pausedBy", "pausedWhy", "pauseCatchUp")));

    @Test
    void pauseReads_areOneBatchGetItemGrant_onLockItems_namingThePauseMarkOnly() {
        List<Map<String, Object>> batches = statements.stream()
                .filter(s -> actions(s).contains("dynamodb:BatchGetItem"))
                .toList();

        assertThat(batches).singleElement().satisfies(batch -> {
            assertThat(actions(batch)).containsExactly("dynamodb:BatchGetItem");
            assertThat(batch.get("Condition")).isEqualTo(PAUSE_MARK_OF_LOCK_ITEMS);
        });
    }

    @Test
    void noWriteOfTheLedger_mayNameTheFenceOrTheCursor_norAnyRunItemsOwnerOrResult() {
        List<Map<String, Object>> writes = statements.stream()
                .filter(s -> actions(s).stream()
                        .anyMatch(a -> List.of("dynamodb:UpdateItem", "dynamodb:PutItem", "dynamodb:DeleteItem")
                                .contains(a)))
                .toList();

        // Maintenance, a skip's mark, its run item and its delete, a pause's mark (decision 0040); an
        // approval's mark and run item (decision 0041).
        assertThat(writes).hasSize(7).allSatisfy(write -> {
            assertThat(actions(write)).hasSize(1);
            assertThat(write.get("Condition").toString())
                    .contains("dynamodb:Attributes")
                    .doesNotContain("leaseFence", "cursor", "occOwner", "occFence", "owner", "result", "earlier");
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void wildcardSuppression_appliesToExactlyTheStacksTheSchedulesAndTheActionsWithoutResources() {
        Map<String, Object> policy = template.findResources("AWS::IAM::ManagedPolicy")
                .values()
                .iterator()
                .next();
        List<Map<String, Object>> suppressions = (List<Map<String, Object>>)
                ((Map<String, Object>) ((Map<String, Object>) policy.get("Metadata")).get("cdk_nag"))
                        .get("rules_to_suppress");

        assertThat(suppressions).singleElement().satisfies(suppression -> {
            assertThat(suppression).containsEntry("id", "AwsSolutions-IAM5");
            assertThat(suppression.get("applies_to"))
                    .isEqualTo(List.of(
                            "Resource::arn:<AWS::Partition>:cloudformation:" + BareStage.REGION + ":"
                                    + BareStage.ACCOUNT + ":stack/" + StageOutputs.STACK_PREFIX + "*/*",
                            "Resource::arn:<AWS::Partition>:scheduler:" + BareStage.REGION + ":" + BareStage.ACCOUNT
                                    + ":schedule/punctual-qa/*",
                            "Resource::*"));
        });
    }

    @Test
    void theLedger_isReadable_andWritableOnlyInItsLockAndRunItems_theJobsTablesNotAtAll() {
        Set<String> ledger = Set.of(BareStage.LEDGER);

        for (String read : List.of(
                "dynamodb:GetItem",
                "dynamodb:Query",
                "dynamodb:DescribeTable",
                "dynamodb:DescribeTimeToLive",
                "dynamodb:DescribeContinuousBackups")) {
            assertThat(grants.get(read)).as(read).isEqualTo(ledger);
        }
        assertThat(grants.get("dynamodb:UpdateItem")).isEqualTo(ledger);
        Map<String, Object> update = statements.stream()
                .filter(s -> actions(s).contains("dynamodb:UpdateItem"))
                .findFirst()
                .orElseThrow();
        assertThat(update.get("Condition").toString()).contains("dynamodb:LeadingKeys=[" + OperatorPolicy.LOCK_ITEMS);
        assertThat(actions(update)).containsExactly("dynamodb:UpdateItem");
        assertThat(grants.get("dynamodb:PutItem")).isEqualTo(ledger);
        assertThat(grants.get("dynamodb:DeleteItem")).isEqualTo(ledger);
        assertThat(grants)
                .doesNotContainKeys(
                        "dynamodb:Scan",
                        "dynamodb:BatchWriteItem",
                        "dynamodb:TransactWriteItems",
                        "dynamodb:*",
                        "lambda:*",
                        "*");
        assertThat(grants.values())
                .allSatisfy(
                        resources -> assertThat(resources).doesNotContain(BareStage.RESERVATIONS, BareStage.MEMBERS));
    }

    @Test
    void logsAndQueues_areTheStagesOwn_schedulesThoseOfItsGroup_stacksThosePunctualNames() {
        Set<String> logGroups =
                new TreeSet<>(BareStage.POOLS.stream().map(BareStage::logGroup).toList());
        Set<String> queues = new TreeSet<>(
                BareStage.POOLS.stream().map(BareStage::failureQueue).toList());
        queues.add(BareStage.SCHEDULER_DEAD_LETTERS);
        queues.add(BareStage.ALERT_DEAD_LETTERS);

        assertThat(grants.get("logs:StartQuery")).isEqualTo(logGroups);
        assertThat(grants.get("logs:FilterLogEvents")).isEqualTo(logGroups);
        assertThat(grants.get("sqs:GetQueueAttributes")).isEqualTo(queues);
        assertThat(grants.get("scheduler:GetSchedule"))
                .containsExactly("arn:{Ref=AWS::Partition}:scheduler:" + BareStage.REGION + ":" + BareStage.ACCOUNT
                        + ":schedule/punctual-qa/*");
        assertThat(grants.get("cloudformation:DescribeStacks"))
                .containsExactly("arn:{Ref=AWS::Partition}:cloudformation:" + BareStage.REGION + ":" + BareStage.ACCOUNT
                        + ":stack/" + StageOutputs.STACK_PREFIX + "*/*");
    }

    @Test
    void everyResourceWildcard_isOnAnActionWithoutResourceLevelPermissions() {
        Set<String> onEverything = new TreeSet<>();
        grants.forEach((action, resources) -> {
            if (resources.contains("*")) {
                onEverything.add(action);
            }
        });

        assertThat(onEverything)
                .containsExactlyInAnyOrder(
                        "logs:GetQueryResults",
                        "logs:StopQuery",
                        "logs:DescribeQueryDefinitions",
                        "scheduler:ListSchedules",
                        "cloudwatch:DescribeAlarms",
                        "lambda:ListEventSourceMappings");
        assertThat(statements).allSatisfy(s -> assertThat(s).containsEntry("Effect", "Allow"));
    }

    @SuppressWarnings("unchecked")
    static Set<String> resourceTypes(Template template) {
        Set<String> types = new TreeSet<>();
        ((Map<String, Object>) template.toJSON().get("Resources"))
                .values()
                .forEach(r -> types.add((String) ((Map<String, Object>) r).get("Type")));
        return types;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> statements(Template template) {
        Map<String, Object> policy = Templates.properties(template, "AWS::IAM::ManagedPolicy")
                .values()
                .iterator()
                .next();
        return (List<Map<String, Object>>) ((Map<String, Object>) policy.get("PolicyDocument")).get("Statement");
    }

    /** Each action the policy allows, with every resource any statement allows it on, rendered as text. */
    private static Map<String, Set<String>> grants(List<Map<String, Object>> statements) {
        Map<String, Set<String>> grants = new LinkedHashMap<>();
        for (Map<String, Object> statement : statements) {
            for (String action : actions(statement)) {
                grants.computeIfAbsent(action, a -> new TreeSet<>()).addAll(listed(statement.get("Resource")));
            }
        }
        return grants;
    }

    private static List<String> actions(Map<String, Object> statement) {
        return listed(statement.get("Action"));
    }

    /** A single value or a list of them; an {@code Fn::Join} is rendered with its parts as text. */
    @SuppressWarnings("unchecked")
    private static List<String> listed(Object value) {
        List<String> items = new ArrayList<>();
        for (Object item : value instanceof List<?> list ? list : List.of(value)) {
            if (item instanceof Map<?, ?> map && map.containsKey("Fn::Join")) {
                List<Object> join = (List<Object>) map.get("Fn::Join");
                StringBuilder text = new StringBuilder();
                ((List<Object>) join.get(1)).forEach(text::append);
                items.add(text.toString());
            } else {
                items.add(String.valueOf(item));
            }
        }
        return items;
    }
}
