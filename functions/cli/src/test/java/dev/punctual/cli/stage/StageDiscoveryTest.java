package dev.punctual.cli.stage;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.POOL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.stage.StageOutputs;
import dev.punctual.testing.DynamoDbHarness;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;

/** {@code --stage NAME} finds a deployed stage through CloudFormation's DescribeStacks (moto). */
class StageDiscoveryTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);

    private static DeployedStageFixture stage;

    @BeforeAll
    static void deploy() {
        stage = DeployedStageFixture.deploy(NOW, Duration.ofMinutes(1));
    }

    @AfterAll
    static void stop() {
        stage.close();
    }

    @Test
    void find_readsEveryOutputOfTheStagesStack_throughTheSharedKeys() {
        try (CloudFormationClient cloudFormation = stage.aws().cloudFormation(DynamoDbHarness.REGION)) {
            DeployedStage found = StageDiscovery.find(
                    cloudFormation, DeployedStageFixture.REGION, stage.stage(), List.of("default", POOL));

            assertThat(found.stackName()).isEqualTo("Punctual-" + stage.stage());
            assertThat(found.ledgerTable()).isEqualTo(stage.ledgerTable());
            assertThat(found.jobTables()).isEqualTo(new java.util.TreeMap<>(stage.jobTables()));
            assertThat(found.scheduleGroup()).isEqualTo("punctual-" + stage.stage());
            assertThat(found.poolAliases()).isEqualTo(new java.util.TreeMap<>(stage.aliases()));
            assertThat(found.aliasOf(POOL)).endsWith("punctual-" + stage.stage() + "-" + POOL + ":live");
            assertThat(found.logGroups())
                    .containsEntry("default", "/aws/lambda/punctual-" + stage.stage() + "-default");
            assertThat(found.savedQueries())
                    .containsEntry("failures", "punctual/" + stage.stage() + "/failures")
                    .containsKey("job-timeline");
            assertThat(found.operatorPolicyArn())
                    .hasValueSatisfying(arn -> assertThat(arn).contains(":policy/"));
        }
    }

    @Test
    void find_anUnknownStage_isRefusedNamingTheStagesThatAreDeployed() {
        try (CloudFormationClient cloudFormation = stage.aws().cloudFormation(DynamoDbHarness.REGION)) {
            assertThatThrownBy(() -> StageDiscovery.find(cloudFormation, "us-east-1", "qa", List.of("default")))
                    .isInstanceOf(OperatorInputException.class)
                    .hasMessageContaining("--stage: 'qa' is not deployed in us-east-1")
                    .hasMessageContaining("accepted: ")
                    .hasMessageContaining(stage.stage());
            assertThat(StageDiscovery.deployedStages(cloudFormation)).contains(stage.stage());
        }
    }

    @Test
    void aliasOf_aPoolTheStageDoesNotDeploy_namesThePoolsItHas() {
        DeployedStage found =
                StageDiscovery.fromOutputs("x", "Punctual-x", "us-east-1", stage.outputs(), List.of("default", POOL));

        assertThatThrownBy(() -> found.aliasOf("reports"))
                .isInstanceOf(OperatorInputException.class)
                .hasMessageContaining("pool: 'reports' is not deployed in stage x")
                .hasMessageContaining("accepted: default, " + POOL);
    }

    @Test
    void aStackWithoutAnOutputTheCliNeeds_isRefusedNamingTheOutput() {
        java.util.Map<String, String> outputs = new java.util.LinkedHashMap<>(stage.outputs());
        outputs.remove(StageOutputs.LEDGER_TABLE);

        assertThatThrownBy(() -> StageDiscovery.fromOutputs("x", "Punctual-x", "us-east-1", outputs, List.of()))
                .hasMessageContaining("stack Punctual-x has no output " + StageOutputs.LEDGER_TABLE);
    }

    @Test
    void status_withAnUnknownStage_exitsTwo_namingTheDeployedStages_andWritesNothingOnStdout() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = PunctualCli.execute(
                new PrintWriter(out), new PrintWriter(err), stage.context(NOW), "status", "--stage", "qa");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).contains("--stage: 'qa' is not deployed", stage.stage());
    }

    @Test
    void anyCommand_againstAws_withoutStage_exitsTwo_sayingStageIsRequired() {
        StringWriter err = new StringWriter();

        int code = PunctualCli.execute(
                new PrintWriter(new StringWriter()), new PrintWriter(err), stage.context(NOW), "run", DAILY);

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString()).contains("--stage: required against AWS", "--endpoint");
    }

    @Test
    void status_onADeployedStage_readsTheLedgerTableItsStackNames() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();

        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                stage.context(NOW),
                "status",
                DAILY,
                "--json",
                "--stage",
                stage.stage());

        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("\"stage\":\"" + stage.stage() + "\"", DAILY);
    }
}
