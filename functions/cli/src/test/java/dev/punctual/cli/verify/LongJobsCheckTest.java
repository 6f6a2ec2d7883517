package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.DeployedStageFixture;
import dev.punctual.testing.DynamoDbHarness;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sfn.model.StateMachineType;

/**
 * verify's long-jobs check: its judgement on plain values (one field off at a time), and reading real state
 * machines on moto, whose definitions are written here by hand with the fields the check reads (infra's
 * LongJobDefinition, which renders the deployed ones, is package-private in the CDK app; LongJobDefinitionTest
 * pins the same fields there).
 */
class LongJobsCheckTest {

    private static final String ACCOUNT = DeployedStageFixture.ACCOUNT;
    private static final Region REGION = DynamoDbHarness.REGION;

    /** close-books as the examples declare it: 6 hours, 2 chunks at once, 3 attempts. */
    private static final ExpectedLongJob MONTH_END =
            new ExpectedLongJob("close-books", "punctual-prod-close-books", 21_600, 2, 2);

    private static final DeployedStateMachine AS_DEPLOYED =
            new DeployedStateMachine("punctual-prod-close-books", "STANDARD", 21_600L, 2, 2);

    /** A definition shaped as LongJobDefinition renders one, with the three fields the check reads. */
    private static String definition(long timeoutSeconds, int chunksAtOnce, int maxAttempts) {
        String retriers = "{\"ErrorEquals\":[\"Lambda.ServiceException\",\"Lambda.TooManyRequestsException\"],"
                + "\"IntervalSeconds\":2,\"MaxAttempts\":6,\"BackoffRate\":2}"
                + (maxAttempts > 1
                        ? ",{\"ErrorEquals\":[\"dev.punctual.runtime.longrun.ChunkAttemptFailed\",\"Sandbox.Timedout\","
                                + "\"States.Timeout\"],\"IntervalSeconds\":2,\"MaxAttempts\":" + (maxAttempts - 1)
                                + ",\"BackoffRate\":2}"
                        : "");
        String task = "{\"Type\":\"Task\",\"Resource\":\"arn:aws:states:::lambda:invoke\",\"Parameters\":"
                + "{\"FunctionName\":\"arn:aws:lambda:" + REGION.id() + ":" + ACCOUNT + ":function:f:live\","
                + "\"Payload.$\":\"$\"}";
        return "{\"Comment\":\"hand-written for LongJobsCheckTest\",\"StartAt\":\"Plan\",\"TimeoutSeconds\":"
                + timeoutSeconds + ",\"States\":{"
                + "\"Plan\":" + task + ",\"ResultPath\":\"$.plan\",\"Next\":\"Chunks\"},"
                + "\"Chunks\":{\"Type\":\"Map\",\"ItemsPath\":\"$.plan.chunks\",\"MaxConcurrency\":" + chunksAtOnce
                + ",\"ItemProcessor\":{\"ProcessorConfig\":{\"Mode\":\"INLINE\"},\"StartAt\":\"Chunk\",\"States\":"
                + "{\"Chunk\":" + task + ",\"Retry\":[" + retriers + "],\"End\":true}}},"
                + "\"ResultPath\":null,\"Next\":\"Finish\"},"
                + "\"Finish\":" + task + ",\"End\":true}}}";
    }

    private static CheckResult judge(Map<String, DeployedStateMachine> found) {
        return new LongJobsCheck(List.of(MONTH_END), found, List.of()).result();
    }

    @Test
    void aStateMachineAsTheCatalogSays_passes_namingTheJob() {
        CheckResult result = judge(Map.of(MONTH_END.stateMachine(), AS_DEPLOYED));

        assertThat(result.status()).as(result.toString()).isEqualTo(CheckStatus.PASS);
        assertThat(result.seen()).isEqualTo("close-books as the catalog says");
        assertThat(result.check()).isEqualTo("long-jobs");
    }

    @Test
    void aMissingStateMachine_fails_namingTheJobAndItsStateMachine_andTheFixIsADeploy() {
        CheckResult result = judge(Map.of());

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen()).isEqualTo("close-books: state machine punctual-prod-close-books does not exist");
        assertThat(result.action()).contains("cdk deploy");
    }

    @Test
    void anExpressStateMachine_fails_namingTheType() {
        CheckResult result = judge(Map.of(
                MONTH_END.stateMachine(),
                new DeployedStateMachine(MONTH_END.stateMachine(), "EXPRESS", 21_600L, 2, 2)));

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen()).isEqualTo("close-books: type EXPRESS (catalog: STANDARD)");
    }

    @Test
    void anotherTimeout_fails_withTheDeployedAndTheCatalogsSeconds() {
        CheckResult result = judge(Map.of(
                MONTH_END.stateMachine(),
                new DeployedStateMachine(MONTH_END.stateMachine(), "STANDARD", 86_400L, 2, 2)));

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen()).isEqualTo("close-books: TimeoutSeconds 86400 (catalog: 21600)");
    }

    @Test
    void anotherConcurrency_fails_withTheDeployedAndTheCatalogsChunksAtOnce() {
        CheckResult result = judge(Map.of(
                MONTH_END.stateMachine(),
                new DeployedStateMachine(MONTH_END.stateMachine(), "STANDARD", 21_600L, 4, 2)));

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen()).isEqualTo("close-books: Chunks MaxConcurrency 4 (catalog: 2)");
    }

    @Test
    void otherRetries_fail_withTheDeployedAndTheCatalogsRetries() {
        CheckResult result = judge(Map.of(
                MONTH_END.stateMachine(),
                new DeployedStateMachine(MONTH_END.stateMachine(), "STANDARD", 21_600L, 2, 0)));

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen()).isEqualTo("close-books: chunk retries (MaxAttempts) 0 (catalog: 2)");
    }

    @Test
    void aDefinitionWithoutTheFields_fails_onEachOfThem() {
        DeployedStateMachine bare = DeployedStateMachine.of(
                MONTH_END.stateMachine(),
                "STANDARD",
                "{\"StartAt\":\"Done\",\"States\":{\"Done\":{\"Type\":\"Pass\"," + "\"End\":true}}}");

        CheckResult result = judge(Map.of(MONTH_END.stateMachine(), bare));

        assertThat(result.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(result.seen())
                .contains(
                        "TimeoutSeconds null (catalog: 21600)",
                        "Chunks MaxConcurrency null (catalog: 2)",
                        "chunk retries (MaxAttempts) null (catalog: 2)");
    }

    @Test
    void theDefinitionsFields_areReadFromTheMapsItemProcessor() {
        assertThat(DeployedStateMachine.of(MONTH_END.stateMachine(), "STANDARD", definition(21_600, 2, 3)))
                .isEqualTo(AS_DEPLOYED);
        // One attempt: LongJobDefinition writes no ChunkAttemptFailed retrier, which is 0 retries.
        assertThat(DeployedStateMachine.of("m", "STANDARD", definition(60, 1, 1))
                        .chunkRetries())
                .isZero();
    }

    @Test
    void aStateMachineOfTheStageThatTheCatalogDoesNotName_warns_andOneOfAStageExtendingItsName_isNotItsOwn() {
        CheckResult result = new LongJobsCheck(
                        List.of(MONTH_END),
                        Map.of(MONTH_END.stateMachine(), AS_DEPLOYED),
                        List.of("punctual-prod-old-close"))
                .result();

        assertThat(result.status()).isEqualTo(CheckStatus.WARN);
        assertThat(result.seen()).contains("not the catalog's: punctual-prod-old-close");
        assertThat(LongJobsCheck.ofStage("punctual-prod-old-close", "prod")).isTrue();
        assertThat(LongJobsCheck.ofStage("punctual-production-close", "prod")).isFalse();
    }

    @Test
    void onMoto_readsEachLongJobsStateMachine_failingTheMissingAndTheDiffering_warningOfNone() {
        String stage = "lj" + UUID.randomUUID().toString().substring(0, 6);
        URI moto = DynamoDbHarness.backend().endpoint();
        Map<String, URI> endpoints = Map.of(StageAws.STATES, moto);
        AwsAccess access = AwsAccess.loopback(REGION.id(), endpoints);
        ExpectedLongJob close = new ExpectedLongJob("close", "punctual-" + stage + "-close", 21_600, 2, 2);
        ExpectedLongJob payouts = new ExpectedLongJob("payouts", "punctual-" + stage + "-payouts", 3_600, 4, 0);
        ExpectedLongJob rebuild = new ExpectedLongJob("rebuild", "punctual-" + stage + "-rebuild", 600, 1, 4);
        try (StageAws aws = StageAws.connect(
                REGION,
                access.credentials(),
                endpoints,
                AwsAccess.DYNAMODB,
                access.cloudFormation(REGION),
                access.lambda(REGION),
                access.logs(REGION))) {
            create(aws, close.stateMachine(), definition(21_600, 2, 3));
            create(aws, payouts.stateMachine(), definition(3_600, 8, 1));
            StageInventory inventory = new StageInventory(
                    stage,
                    "Punctual-" + stage,
                    "arn:aws:cloudformation:" + REGION.id() + ":" + ACCOUNT + ":stack/Punctual-" + stage + "/"
                            + UUID.randomUUID(),
                    "CREATE_COMPLETE",
                    Map.of(),
                    "ledger",
                    Map.of(),
                    "punctual-" + stage,
                    List.of(),
                    Map.of());

            CheckResult all =
                    Guard.run("long-jobs", () -> LongJobsCheck.read(aws, inventory, List.of(close, payouts, rebuild)));
            CheckResult one = Guard.run("long-jobs", () -> LongJobsCheck.read(aws, inventory, List.of(close)));

            assertThat(all.status()).as(all.toString()).isEqualTo(CheckStatus.FAIL);
            assertThat(all.seen())
                    .isEqualTo("payouts: Chunks MaxConcurrency 8 (catalog: 4); rebuild: state machine punctual-" + stage
                            + "-rebuild does not exist");
            assertThat(one.status()).as(one.toString()).isEqualTo(CheckStatus.WARN);
            assertThat(one.seen())
                    .isEqualTo("close as the catalog says; not the catalog's: punctual-" + stage + "-payouts");
        }
    }

    private static void create(StageAws aws, String name, String definition) {
        aws.stepFunctions()
                .createStateMachine(r -> r.name(name)
                        .type(StateMachineType.STANDARD)
                        .roleArn("arn:aws:iam::" + ACCOUNT + ":role/punctual-test")
                        .definition(definition));
    }
}
