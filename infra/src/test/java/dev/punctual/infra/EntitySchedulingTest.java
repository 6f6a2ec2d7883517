package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.entity.EntityScheduleName;
import dev.punctual.job.EntityJob;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.runtime.MissedRunWatchdog;
import dev.punctual.stage.StageOutputs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * A stage whose catalog has per-entity jobs gets the entity group its services create schedules in,
 * one role per pool hosting such a job for those schedules, and the managed policy the services put
 * them with; a stage without one gets none of it.
 */
class EntitySchedulingTest {

    private static final FunctionPool BULK = new FunctionPool("bulk", 2048, Duration.ofMinutes(5));
    private static final FunctionPool REPORTS = new FunctionPool("reports", 1024, Duration.ofMinutes(5));

    /** Per-entity jobs in pools default and bulk; reports hosts only a job with a schedule of its own. */
    private static final JobCatalog CATALOG = JobCatalog.of(
                    perEntity("tenant-report", FunctionPool.DEFAULT),
                    perEntity("account-reminder", BULK),
                    JobDefinition.builder("nightly-export")
                            .schedule("0 2 * * *", "UTC")
                            .pool(REPORTS)
                            .job(services -> context -> JobResult.empty())
                            .build())
            .plus(List.of(MissedRunWatchdog.definition()));

    private static final String GROUP = "punctual-dev-entities";

    private static StageStack stage;
    private static Template template;
    private static EntityScheduling entities;

    @BeforeAll
    static void synth() {
        stage = Synth.stage(Stages.named("dev"), CATALOG);
        template = Template.fromStack(stage);
        entities = stage.entityScheduling().orElseThrow();
    }

    @Test
    void aStageWithAPerEntityJob_hasTheEntityGroup_retainedOnDelete() {
        Map<String, Map<String, Object>> groups = template.findResources("AWS::Scheduler::ScheduleGroup");
        Map<String, Object> group = groups.get(Templates.logicalId(entities.group()));

        assertThat(GROUP).isEqualTo(EntityScheduleName.group("dev"));
        assertThat(((Map<?, ?>) group.get("Properties")).get("Name")).isEqualTo(GROUP);
        assertThat(group).containsEntry("DeletionPolicy", "Retain").containsEntry("UpdateReplacePolicy", "Retain");
        // The stage's own group keeps its schedules' lifecycle: deleted with the stack.
        assertThat(groups.get(Templates.logicalId(stage.scheduleGroup()))).containsEntry("DeletionPolicy", "Delete");
    }

    @Test
    void aStageWithoutPerEntityJobs_hasNoEntityGroupPolicyOrRoles() {
        StageStack plain = Synth.stage("dev");
        Template plainTemplate = Template.fromStack(plain);

        assertThat(plain.entityScheduling()).isEmpty();
        assertThat(plain.getNode().tryFindChild("EntityScheduling")).isNull();
        plainTemplate.resourceCountIs("AWS::Scheduler::ScheduleGroup", 1);
        assertThat(plainTemplate.toJSON().toString())
                .doesNotContain("-entities", "scheduler:CreateSchedule", "iam:PassRole", "entity schedules");
        assertThat(plainTemplate.findOutputs("*"))
                .doesNotContainKeys(
                        StageOutputs.ENTITY_SCHEDULE_GROUP,
                        StageOutputs.ENTITY_SERVICE_POLICY,
                        StageOutputs.SCHEDULER_DEAD_LETTERS)
                .allSatisfy(
                        (key, output) -> assertThat(key).doesNotStartWith(StageOutputs.ENTITY_SCHEDULER_ROLE_PREFIX));
    }

    @Test
    void theEntityRoles_areOnePerPoolHostingAPerEntityJob() {
        assertThat(EntityScheduling.pools(CATALOG)).containsExactly("default", "bulk");
        assertThat(entities.roles()).containsOnlyKeys("default", "bulk");
        assertThat(Templates.properties(template, "AWS::IAM::Role").values().stream()
                        .filter(role -> String.valueOf(role.get("Description")).contains("entity schedules"))
                        .map(role -> role.get("Description")))
                .containsExactlyInAnyOrder(
                        "Punctual: the stage's entity schedules (group " + GROUP
                                + ") deliver to pool default with this role",
                        "Punctual: the stage's entity schedules (group " + GROUP
                                + ") deliver to pool bulk with this role");
    }

    @Test
    void theEntityRole_isAssumableOnlyByTheEntityGroupsSchedules() {
        for (String pool : List.of("default", "bulk")) {
            assertThat(role(Templates.logicalId(entities.roles().get(pool))).get("AssumeRolePolicyDocument"))
                    .as(pool)
                    .isEqualTo(Map.of(
                            "Version",
                            "2012-10-17",
                            "Statement",
                            List.of(Map.of(
                                    "Action",
                                    "sts:AssumeRole",
                                    "Effect",
                                    "Allow",
                                    "Principal",
                                    Map.of("Service", "scheduler.amazonaws.com"),
                                    "Condition",
                                    Map.of(
                                            "StringEquals",
                                            Map.of(
                                                    "aws:SourceAccount",
                                                    Map.of("Ref", "AWS::AccountId"),
                                                    "aws:SourceArn",
                                                    Templates.getAtt(
                                                            Templates.logicalId(entities.group()), "Arn")))))));
        }
    }

    @Test
    void theEntityRole_isNotTheJobGroupsRole_whoseTrustNamesTheOtherGroup() {
        String jobRole = Templates.logicalId(stage.schedulerRoles().of("default"));
        String entityRole = Templates.logicalId(entities.roles().get("default"));

        assertThat(entityRole).isNotEqualTo(jobRole);
        assertThat(role(jobRole).get("AssumeRolePolicyDocument").toString())
                .contains(Templates.logicalId(stage.scheduleGroup()))
                .doesNotContain(Templates.logicalId(entities.group()));
    }

    @Test
    void theEntityRole_mayOnlyInvokeItsPoolsAlias_andSendToTheSchedulerDeadLetters() {
        String roleId = Templates.logicalId(entities.roles().get("bulk"));
        List<Map<String, Object>> policies = Templates.properties(template, "AWS::IAM::Policy").values().stream()
                .filter(p -> p.get("Roles").equals(List.of(Templates.ref(roleId))))
                .toList();

        assertThat(policies)
                .singleElement()
                .satisfies(policy -> assertThat(policy.get("PolicyDocument"))
                        .isEqualTo(Map.of(
                                "Version",
                                "2012-10-17",
                                "Statement",
                                List.of(
                                        Map.of(
                                                "Action",
                                                "lambda:InvokeFunction",
                                                "Effect",
                                                "Allow",
                                                "Resource",
                                                Templates.ref(Templates.logicalId(stage.pools()
                                                        .get("bulk")
                                                        .alias()))),
                                        Map.of(
                                                "Action",
                                                "sqs:SendMessage",
                                                "Effect",
                                                "Allow",
                                                "Resource",
                                                Templates.getAtt(
                                                        Templates.logicalId(stage.schedulerDeadLetters()), "Arn"))))));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theServicePolicy_allowsScheduleWritesOnlyInTheEntityGroup_andPassesOnlyTheEntityRoles() {
        Map<String, Object> document = (Map<String, Object>) servicePolicy().get("PolicyDocument");
        List<Map<String, Object>> statements = (List<Map<String, Object>>) document.get("Statement");
        Map<String, Object> passRole = new TreeMap<>(statements.get(2));
        Object passed = passRole.remove("Resource");

        assertThat(statements).hasSize(4);
        assertThat(statements.get(0))
                .isEqualTo(Map.of(
                        "Action",
                        EntityScheduling.SCHEDULE_ACTIONS,
                        "Effect",
                        "Allow",
                        "Resource",
                        Map.of(
                                "Fn::Join",
                                List.of(
                                        "",
                                        List.of(
                                                "arn:",
                                                Map.of("Ref", "AWS::Partition"),
                                                ":scheduler:",
                                                Map.of("Ref", "AWS::Region"),
                                                ":",
                                                Map.of("Ref", "AWS::AccountId"),
                                                ":schedule/" + GROUP + "/*")))));
        assertThat(statements.get(1))
                .isEqualTo(Map.of("Action", "scheduler:ListSchedules", "Effect", "Allow", "Resource", "*"));
        assertThat(passRole)
                .isEqualTo(Map.of(
                        "Action",
                        "iam:PassRole",
                        "Condition",
                        Map.of("StringEquals", Map.of("iam:PassedToService", "scheduler.amazonaws.com")),
                        "Effect",
                        "Allow"));
        assertThat((List<Object>) passed)
                .containsExactlyInAnyOrder(
                        Templates.getAtt(Templates.logicalId(entities.roles().get("default")), "Arn"),
                        Templates.getAtt(Templates.logicalId(entities.roles().get("bulk")), "Arn"));
        assertThat(servicePolicy().get("Description"))
                .asString()
                .startsWith("Punctual stage dev:")
                .contains(GROUP);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theServicePolicy_updatesOnTheLedgerOnlyThePerEntityJobsEntityItems_andOnlyTheirTombstone() {
        Map<String, Object> document = (Map<String, Object>) servicePolicy().get("PolicyDocument");
        List<Map<String, Object>> statements = (List<Map<String, Object>>) document.get("Statement");
        List<Map<String, Object>> onLedger = statements.stream()
                .filter(st -> st.get("Action").toString().contains("dynamodb:"))
                .toList();

        assertThat(onLedger)
                .singleElement()
                .isEqualTo(Map.of(
                        "Action",
                        "dynamodb:UpdateItem",
                        "Effect",
                        "Allow",
                        "Resource",
                        Templates.getAtt(Templates.logicalId(stage.tables().ledger()), "Arn"),
                        "Condition",
                        Map.of(
                                "ForAllValues:StringLike",
                                Map.of(
                                        "dynamodb:LeadingKeys",
                                        List.of("lock#tenant-report:*", "lock#account-reminder:*"),
                                        "dynamodb:Attributes",
                                        List.of(
                                                "pk",
                                                "sk",
                                                "deletedAt",
                                                "deletedBy",
                                                "nextDue",
                                                "dueBucket",
                                                "entityWriter",
                                                "entityWriterUntil")))));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theServicePolicysWildcards_areSuppressedOneByOne_eachWithItsReason() {
        Map<String, Object> policy =
                template.findResources("AWS::IAM::ManagedPolicy").get(Templates.logicalId(entities.servicePolicy()));
        List<Map<String, Object>> suppressions = (List<Map<String, Object>>)
                ((Map<String, Object>) ((Map<String, Object>) policy.get("Metadata")).get("cdk_nag"))
                        .get("rules_to_suppress");

        assertThat(suppressions).hasSize(2).allSatisfy(s -> assertThat(s).containsEntry("id", "AwsSolutions-IAM5"));
        assertThat(suppressions.get(0).get("applies_to"))
                .isEqualTo(List.of("Resource::arn:<AWS::Partition>:scheduler:<AWS::Region>:<AWS::AccountId>:schedule/"
                        + GROUP + "/*"));
        assertThat(suppressions.get(0).get("reason")).asString().contains(GROUP + "/*");
        assertThat(suppressions.get(1).get("applies_to")).isEqualTo(List.of("Resource::*"));
        assertThat(suppressions.get(1).get("reason"))
                .asString()
                .contains("ListSchedules supports no resource-level permissions");
    }

    @Test
    void theOperatorPolicy_readsEntitySchedulesTheirGroupAndTheServicesPolicy_only_andWritesNone() {
        Map<String, Object> operator = Templates.properties(template, "AWS::IAM::ManagedPolicy").values().stream()
                .filter(p -> String.valueOf(p.get("Description")).contains("operate it with the CLI"))
                .findFirst()
                .orElseThrow();
        String document = String.valueOf(operator.get("PolicyDocument"));

        assertThat(document)
                .contains("scheduler:GetScheduleGroup", "iam:GetPolicy", "iam:GetPolicyVersion")
                .contains("schedule/" + GROUP + "/*")
                .contains(Templates.logicalId(entities.servicePolicy()))
                .doesNotContain("scheduler:CreateSchedule", "scheduler:DeleteSchedule", "iam:PassRole");
        assertThat(Templates.properties(Template.fromStack(Synth.stage("dev")), "AWS::IAM::ManagedPolicy")
                        .values()
                        .toString())
                .as("a stage without per-entity jobs")
                .doesNotContain("scheduler:GetScheduleGroup", "iam:GetPolicy");
    }

    @Test
    void aPerEntityJob_getsNoScheduleOfItsOwn() {
        List<String> names = new ArrayList<>(Templates.jobSchedules(stage).keySet());
        Templates.properties(template, "AWS::Scheduler::Schedule")
                .values()
                .forEach(p -> names.add((String) p.get("Name")));

        assertThat(names)
                .contains("nightly-export", MissedRunWatchdog.definition().id())
                .doesNotContain("tenant-report", "account-reminder");
        assertThat(stage.jobCadences()).doesNotContainKeys("tenant-report", "account-reminder");
    }

    @Test
    void theOutputs_nameTheEntityGroupThePolicyEachEntityRoleAndTheDeadLetterQueue() {
        Map<String, Object> values = new TreeMap<>();
        template.findOutputs("*").forEach((key, output) -> {
            if (key.startsWith("Entity") || key.equals(StageOutputs.SCHEDULER_DEAD_LETTERS)) {
                values.put(key, output.get("Value"));
            }
        });

        assertThat(values)
                .isEqualTo(Map.of(
                        StageOutputs.ENTITY_SCHEDULE_GROUP,
                        GROUP,
                        StageOutputs.ENTITY_SERVICE_POLICY,
                        Templates.ref(Templates.logicalId(entities.servicePolicy())),
                        StageOutputs.entitySchedulerRole("default"),
                        Templates.getAtt(Templates.logicalId(entities.roles().get("default")), "Arn"),
                        StageOutputs.entitySchedulerRole("bulk"),
                        Templates.getAtt(Templates.logicalId(entities.roles().get("bulk")), "Arn"),
                        StageOutputs.SCHEDULER_DEAD_LETTERS,
                        Templates.getAtt(Templates.logicalId(stage.schedulerDeadLetters()), "Arn")));
        assertThat(template.findOutputs("*")).containsKey(StageOutputs.poolAlias("bulk"));
        assertThat(template.findOutputs("*").values())
                .allSatisfy(o -> assertThat(o).doesNotContainKey("Export").containsKey("Description"));
    }

    private static JobDefinition perEntity(String id, FunctionPool pool) {
        return JobDefinition.builder(id)
                .schedule("0 9 * * *", "UTC")
                .pool(pool)
                .perEntity(EntityJob.parameters("locale"))
                .job(services -> context -> JobResult.empty())
                .build();
    }

    private static Map<String, Object> role(String logicalId) {
        return Templates.properties(template, "AWS::IAM::Role").get(logicalId);
    }

    private static Map<String, Object> servicePolicy() {
        return Templates.properties(template, "AWS::IAM::ManagedPolicy")
                .get(Templates.logicalId(entities.servicePolicy()));
    }
}
