package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.DeployedStageFixture;
import dev.punctual.entity.EntityScheduleName;
import dev.punctual.stage.StageOutputs;
import dev.punctual.testing.DynamoDbHarness;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;

/**
 * verify's entity-group check: against moto (CloudFormation outputs, the Scheduler API's groups, IAM's
 * policies and versions, the protocol-level stand-ins of decision 0016), and on documents that differ
 * from docs/entities.md's grants by one statement.
 */
class EntityGroupCheckTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ACCOUNT = DeployedStageFixture.ACCOUNT;
    private static final Region REGION = DynamoDbHarness.REGION;

    /** The policy the CDK app writes (infra's EntityScheduling), for a stage and its one entity role. */
    private static String documented(String stage, String role) {
        String group = EntityScheduleName.group(stage);
        return "{\"Version\":\"2012-10-17\",\"Statement\":["
                + "{\"Effect\":\"Allow\",\"Action\":[\"scheduler:CreateSchedule\",\"scheduler:DeleteSchedule\","
                + "\"scheduler:GetSchedule\",\"scheduler:UpdateSchedule\"],\"Resource\":\"arn:aws:scheduler:"
                + REGION.id() + ":" + ACCOUNT + ":schedule/" + group + "/*\"},"
                + "{\"Effect\":\"Allow\",\"Action\":\"scheduler:ListSchedules\",\"Resource\":\"*\"},"
                + "{\"Effect\":\"Allow\",\"Action\":\"iam:PassRole\",\"Resource\":\"" + role + "\","
                + "\"Condition\":{\"StringEquals\":{\"iam:PassedToService\":\"scheduler.amazonaws.com\"}}}]}";
    }

    private static String role(String stage) {
        return "arn:aws:iam::" + ACCOUNT + ":role/punctual-" + stage + "-entity-scheduler-default";
    }

    /** A stage in moto: its stack's outputs, its entity group if {@code withGroup}, and the policy given. */
    private static CheckResult verifyStage(boolean withGroup, String policyDocument) {
        String stage = "ent-" + UUID.randomUUID().toString().substring(0, 6);
        URI moto = DynamoDbHarness.backend().endpoint();
        Map<String, URI> endpoints = new LinkedHashMap<>();
        for (String service : new String[] {
            AwsAccess.CLOUDFORMATION, AwsAccess.LOGS, AwsAccess.LAMBDA, StageAws.SCHEDULER, StageAws.IAM
        }) {
            endpoints.put(service, moto);
        }
        AwsAccess access = AwsAccess.loopback(REGION.id(), endpoints);
        try (StageAws aws = StageAws.connect(
                REGION,
                access.credentials(),
                endpoints,
                AwsAccess.DYNAMODB,
                access.cloudFormation(REGION),
                access.lambda(REGION),
                access.logs(REGION))) {
            String policyArn = aws.iam()
                    .createPolicy(r -> r.policyName("punctual-" + stage + "-entity-services")
                            .policyDocument(policyDocument.replace("STAGE", stage)))
                    .policy()
                    .arn();
            if (withGroup) {
                aws.scheduler().createScheduleGroup(r -> r.name(EntityScheduleName.group(stage)));
            }
            Map<String, String> outputs = new LinkedHashMap<>();
            outputs.put(StageOutputs.STAGE_NAME, stage);
            outputs.put(StageOutputs.ENTITY_SCHEDULE_GROUP, EntityScheduleName.group(stage));
            outputs.put(StageOutputs.ENTITY_SERVICE_POLICY, policyArn);
            outputs.put(StageOutputs.entitySchedulerRole("default"), role(stage));
            DeployedStageFixture.createStack(access, stage, outputs);
            String stackId = aws.cloudFormation()
                    .describeStacks(r -> r.stackName(StageOutputs.stackName(stage)))
                    .stacks()
                    .getFirst()
                    .stackId();
            StageInventory inventory = new StageInventory(
                    stage,
                    StageOutputs.stackName(stage),
                    stackId,
                    "CREATE_COMPLETE",
                    Map.of(),
                    "ledger",
                    Map.of(),
                    "punctual-" + stage,
                    List.of(),
                    Map.of());
            return Guard.run("entity-group", () -> EntityGroupCheck.read(aws, inventory, List.of("default")));
        }
    }

    @Test
    void aStageWithItsEntityGroup_andThePolicyAsDocumented_passes() {
        CheckResult result = verifyStage(true, documented("STAGE", role("STAGE")));

        assertThat(result.status()).as(result.toString()).isEqualTo(CheckStatus.PASS);
        assertThat(result.seen()).contains("ACTIVE", "grants 3 statements as documented");
    }

    @Test
    void aStageWithoutItsEntityGroup_fails_namingTheGroup() {
        CheckResult result = verifyStage(false, documented("STAGE", role("STAGE")));

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen()).contains("-entities does not exist");
    }

    @Test
    void aPolicyThatAlsoGrantsTheStagesOwnGroup_fails_namingTheExtraGrant() {
        String widened = documented("STAGE", role("STAGE"))
                .replace(
                        "]}",
                        ",{\"Effect\":\"Allow\",\"Action\":\"scheduler:DeleteSchedule\",\"Resource\":\"arn:aws:scheduler:"
                                + REGION.id() + ":" + ACCOUNT + ":schedule/punctual-STAGE/*\"}]}");

        CheckResult result = verifyStage(true, widened);

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen()).contains("also grants: Allow [scheduler:DeleteSchedule] on [arn:aws:scheduler:");
    }

    private static CheckResult check(JsonNode policy) {
        String stage = "prod";
        return new EntityGroupCheck(
                        EntityScheduleName.group(stage),
                        Optional.of(EntityScheduleName.group(stage)),
                        Optional.of("ACTIVE"),
                        Optional.of("arn:aws:iam::" + ACCOUNT + ":policy/p"),
                        Optional.of(policy),
                        "arn:aws:scheduler:" + REGION.id() + ":" + ACCOUNT + ":schedule/"
                                + EntityScheduleName.group(stage) + "/*",
                        Map.of("default", role(stage)))
                .result();
    }

    @Test
    void passRoleWithoutTheSchedulerCondition_fails_asLackingTheDocumentedGrant() throws Exception {
        JsonNode policy = JSON.readTree(documented("prod", role("prod"))
                .replace(
                        ",\"Condition\":{\"StringEquals\":{\"iam:PassedToService\":\"scheduler.amazonaws.com\"}}", ""));

        CheckResult result = check(policy);

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen()).contains("lacks: Allow [iam:PassRole]", "also grants: Allow [iam:PassRole]");
    }

    @Test
    void thePolicyAsDocumented_passes_andAStatementLess_fails() throws Exception {
        assertThat(check(JSON.readTree(documented("prod", role("prod")))).status())
                .isEqualTo(CheckStatus.PASS);

        JsonNode noList = JSON.readTree(documented("prod", role("prod"))
                .replace("{\"Effect\":\"Allow\",\"Action\":\"scheduler:ListSchedules\",\"Resource\":\"*\"},", ""));
        CheckResult result = check(noList);

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen()).contains("lacks: Allow [scheduler:ListSchedules] on [*]");
    }
}
