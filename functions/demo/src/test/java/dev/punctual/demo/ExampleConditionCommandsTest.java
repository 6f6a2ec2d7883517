package dev.punctual.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The examples' maintenance condition {@code synthetic-members} (decision 0036, 5) through the operator
 * CLI on the emulator, as an operator meets it: {@code status} says whether it holds, a run while it holds
 * skips as MAINTENANCE with its reason, and once the data set is reset the job runs again.
 */
class ExampleConditionCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    private final String domain = TestTables.uniqueName(getClass(), "domain");
    private final List<String> stage = List.of(
            "--endpoint",
            DynamoDbHarness.backend().endpoint().toString(),
            "--ledger-table",
            TestTables.uniqueName(getClass(), "ledger"),
            "--job-table",
            "DemoDomain=" + domain,
            "--stage",
            "dev",
            "--output",
            "json");

    private JsonNode cli(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(stage);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                CliContext.withClock(Clock.fixed(NOW, ZoneOffset.UTC)),
                all.toArray(String[]::new));
        assertThat(code).as("%s: %s%s", List.of(args), out, err).isIn(0, PunctualCli.RAN_NOTHING);
        return JSON.readTree(out.toString());
    }

    private Map<String, AttributeValue> syntheticMember() {
        return Map.of("pk", AttributeValue.fromS("synthetic-members"), "sk", AttributeValue.fromS("sm-001"));
    }

    @Test
    void statusSaysWhetherTheConditionHolds_aRunWhileItHoldsSkips_andAfterTheResetItRuns() throws Exception {
        JsonNode before = cli("status", "expire-reservations").at("/conditions/0");
        DynamoDbHarness.client().putItem(b -> b.tableName(domain).item(syntheticMember()));
        JsonNode loaded = cli("status", "expire-reservations").at("/conditions/0");
        JsonNode skipped = cli("run", "expire-reservations").at("/occurrences/0");
        DynamoDbHarness.client().deleteItem(b -> b.tableName(domain).key(syntheticMember()));
        JsonNode ran = cli("run", "expire-reservations").at("/occurrences/0");

        assertThat(before.get("condition").asText()).isEqualTo("synthetic-members");
        assertThat(before.get("state").asText()).isEqualTo("clear");
        assertThat(loaded.get("state").asText()).isEqualTo("holds");
        assertThat(skipped.get("reason").asText()).isEqualTo("MAINTENANCE");
        assertThat(skipped.get("detail").asText())
                .isEqualTo("condition synthetic-members: synthetic member data is loaded; reset it to resume");
        assertThat(ran.get("outcome").asText()).as(ran.toString()).isEqualTo("PASS");
    }
}
