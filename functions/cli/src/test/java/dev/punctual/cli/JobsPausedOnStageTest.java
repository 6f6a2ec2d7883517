package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.HOURLY;
import static dev.punctual.fixtures.FixtureCatalog.QUARTER_HOURLY;
import static dev.punctual.fixtures.FixtureCatalog.SHARED_GROUP;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.cli.EmulatorStageCli.Result;
import dev.punctual.cli.stage.AwsAccess;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.testing.DynamoDbHarness;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code punctual jobs} with a stage (issue 38, item 1; decision 0040): which jobs an operator paused, by
 * the job or by its lock group, who, why, since and until when; without a stage, the catalog alone and no
 * request at all. {@code close-holds} and {@code settle-holds} share the lock group {@code holds}.
 */
class JobsPausedOnStageTest {

    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");
    private static final Instant UNTIL = Instant.parse("2026-12-01T06:00:00Z");

    private EmulatorStageCli stage;

    @BeforeEach
    void freshStage() {
        stage = new EmulatorStageCli(getClass());
    }

    private Result cli(String... args) {
        return stage.at(NOW, 1, args);
    }

    private void pauseTheDailyJobAndTheSharedGroup() {
        Result job = cli("pause", DAILY, "--reason", "supplier outage", "--by", "alice");
        Result group = stage.at(
                NOW,
                1,
                "pause",
                "--group",
                SHARED_GROUP,
                "--reason",
                "ledger migration",
                "--by",
                "bob",
                "--until",
                UNTIL.toString(),
                "--then",
                "catch-up");
        assertThat(job.exitCode()).as(job.err()).isZero();
        assertThat(group.exitCode()).as(group.err()).isZero();
    }

    @Test
    void aControlCharacterStoredInAPauseMark_isShownEscaped_inTheTableAndInJson() throws Exception {
        pauseTheDailyJobAndTheSharedGroup();
        // The operator policy lets anyone with it update the mark: what is stored is not trusted to be
        // what pause wrote (redacted, one line).
        DynamoDbHarness.client()
                .updateItem(b -> b.tableName(stage.ledgerTable())
                        .key(Map.of(
                                "pk",
                                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("lock#" + DAILY),
                                "sk",
                                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("lock")))
                        .updateExpression("SET pausedBy = :by, pausedWhy = :why")
                        .expressionAttributeValues(Map.of(
                                ":by",
                                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("\u001b[2Jmallory"),
                                ":why",
                                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(
                                        "fine\u202eevil"))));

        Result table = stage.at(NOW, 1, "jobs", "-o", "table");
        Result json = cli("jobs");

        assertThat(table.exitCode()).as(table.err()).isZero();
        assertThat(table.out()).doesNotContain("\u001b", "\u202e").contains("\\u001B[2Jmallory", "fine\\u202Eevil");
        JsonNode daily = StreamSupport.stream(json.json().path("jobs").spliterator(), false)
                .filter(j -> j.path("job").asText().equals(DAILY))
                .findFirst()
                .orElseThrow()
                .path("paused");
        assertThat(daily.path("paused_by").asText()).isEqualTo("\\u001B[2Jmallory");
        assertThat(daily.path("reason").asText()).isEqualTo("fine\\u202Eevil");
    }

    @Test
    void jobsOnAStage_showsTheJobPausedByItself_andBothMembersOfThePausedGroup_andNoOther() throws Exception {
        pauseTheDailyJobAndTheSharedGroup();

        Result listed = cli("jobs");

        assertThat(listed.exitCode()).as(listed.err()).isZero();
        JsonNode jobs = listed.json().path("jobs");
        Map<String, JsonNode> paused = StreamSupport.stream(jobs.spliterator(), false)
                .filter(j -> !j.path("paused").isNull() && !j.path("paused").isMissingNode())
                .collect(java.util.stream.Collectors.toMap(j -> j.path("job").asText(), j -> j.path("paused")));
        assertThat(paused).containsOnlyKeys(DAILY, QUARTER_HOURLY, HOURLY);
        JsonNode daily = paused.get(DAILY);
        assertThat(daily.path("scope").asText()).isEqualTo("job");
        assertThat(daily.path("paused_by").asText()).isEqualTo("alice");
        assertThat(daily.path("reason").asText()).isEqualTo("supplier outage");
        assertThat(daily.path("since").asText()).isEqualTo(NOW.toString());
        assertThat(daily.path("until").isNull()).as("until resumed").isTrue();
        assertThat(List.of(paused.get(QUARTER_HOURLY), paused.get(HOURLY))).allSatisfy(member -> {
            assertThat(member.path("scope").asText()).isEqualTo("group");
            assertThat(member.path("id").asText()).isEqualTo(SHARED_GROUP);
            assertThat(member.path("paused_by").asText()).isEqualTo("bob");
            assertThat(member.path("reason").asText()).isEqualTo("ledger migration");
            assertThat(member.path("until").asText()).isEqualTo(UNTIL.toString());
        });
        assertThat(jobs.size()).as("the others are listed, unpaused").isGreaterThan(3);
        assertThat(listed.json().path("stage").asText()).isEqualTo("dev");
    }

    @Test
    void jobsOnAStage_asATable_marksThePausedColumn_andSaysWhoWhySinceUntil_belowIt() {
        pauseTheDailyJobAndTheSharedGroup();

        Result table = cli("jobs", "--output", "table");

        assertThat(table.exitCode()).as(table.err()).isZero();
        String[] lines = table.out().split("\\R");
        assertThat(lines[0]).startsWith("JOB").contains("PAUSED");
        assertThat(table.out())
                .contains(DAILY + ": paused by alice since " + NOW + ", until resumed: supplier outage (punctual"
                        + " resume " + DAILY + " --catch-up or --skip-paused)")
                .contains(HOURLY + ": paused with its lock group " + SHARED_GROUP + " by bob since " + NOW + ", until "
                        + UNTIL + ": ledger migration (punctual resume --group " + SHARED_GROUP)
                .contains(QUARTER_HOURLY + ": paused with its lock group " + SHARED_GROUP);
        assertThat(List.of(lines))
                .filteredOn(l -> l.startsWith(DAILY + " "))
                .singleElement()
                .satisfies(l -> assertThat(l).matches(DAILY + "\\s+job\\s.*"));
        assertThat(List.of(lines))
                .filteredOn(l -> l.startsWith(HOURLY + " "))
                .singleElement()
                .satisfies(l -> assertThat(l).contains("group " + SHARED_GROUP));
    }

    @Test
    void jobsWithoutAStage_sendsNoRequest_whileTheSameProxySeesJobsWithOne() {
        try (RecordingProxy proxy = new RecordingProxy(DynamoDbHarness.backend().endpoint())) {
            URI endpoint = proxy.endpoint();
            CliContext everythingThroughTheProxy = new CliContext(
                    Clock.fixed(NOW, ZoneOffset.UTC),
                    AwsAccess.loopback(
                            "us-east-1",
                            Map.of(
                                    AwsAccess.DYNAMODB, endpoint,
                                    AwsAccess.CLOUDFORMATION, endpoint,
                                    AwsAccess.LAMBDA, endpoint,
                                    AwsAccess.LOGS, endpoint,
                                    AwsAccess.SCHEDULER, endpoint,
                                    AwsAccess.STATES, endpoint)),
                    new ByteArrayInputStream(new byte[0]),
                    d -> {});
            proxy.take();

            int alone = run(everythingThroughTheProxy, "jobs", "--output", "json");
            List<RecordingProxy.Access> sentAlone = proxy.take();
            int staged = run(
                    everythingThroughTheProxy,
                    "jobs",
                    "--endpoint",
                    endpoint.toString(),
                    "--ledger-table",
                    stage.ledgerTable(),
                    "--output",
                    "json");
            List<RecordingProxy.Access> sentStaged = proxy.take();

            assertThat(alone).isZero();
            assertThat(sentAlone).as("jobs alone reads the catalog only").isEmpty();
            assertThat(staged).isZero();
            assertThat(sentStaged).anyMatch(a -> a.action().equals("dynamodb:BatchGetItem"));
        }
    }

    @Test
    void stageOptionsWithoutAStage_areRefusedBeforeAnyRequest_namingThem() {
        Result refused = EmulatorStageCli.typed(NOW, "jobs", "--region", "eu-west-1", "--ledger-table", "t");

        assertThat(refused.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err())
                .contains("--region, --ledger-table: only with a stage; accepted: jobs alone")
                .contains("--stage NAME or --endpoint URL");
    }

    private static int run(CliContext context, String... args) {
        return PunctualCli.execute(
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), context, args);
    }
}
