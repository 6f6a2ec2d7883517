package dev.punctual.cli.running;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.stage.CliContext;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code replay} of a job with a start deadline (decision 0032): too late unless {@code --force}. */
class DeadlineReplayCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC);
    private static final JobCatalog CATALOG = JobCatalog.of(JobDefinition.builder("send-by")
            .schedule("*/15 * * * *", "UTC")
            .startDeadline(Duration.ofMinutes(10))
            .job(services -> context -> JobResult.empty())
            .build());

    private final List<String> stage = List.of(
            "--endpoint",
            DynamoDbHarness.backend().endpoint().toString(),
            "--ledger-table",
            TestTables.uniqueName(getClass(), "ledger"),
            "--stage",
            "dev",
            "--output",
            "json");

    private JsonNode replay(String... extra) throws Exception {
        List<String> all = new ArrayList<>(List.of("replay"));
        all.addAll(stage);
        all.addAll(List.of("send-by", "--from", "2026-11-30T09:00:00Z", "--to", "2026-11-30T09:30:00Z"));
        all.addAll(List.of(extra));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CliContext context = CliContext.withClock(NOW);
        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(err),
                context,
                commands -> {
                    commands.put(
                            "replay",
                            () -> new InvocationCommands.Replay(context, ignored -> CATALOG).runningInProcess(CATALOG));
                    return commands;
                },
                all.toArray(String[]::new));
        assertThat(code).as(err.toString()).isNotNegative();
        return JSON.readTree(out.toString());
    }

    @Test
    void replay_ofOccurrencesPastTheirDeadline_recordsThemAsDeadlineSkips_andOnlyForceRunsThem() throws Exception {
        JsonNode refused = replay();
        JsonNode dry = replay("--force", "--dry-run");
        JsonNode forced = replay("--force");

        assertThat(refused.at("/counts/skip").asInt()).isEqualTo(2);
        assertThat(refused.at("/counts/pass").asInt()).isZero();
        assertThat(refused.at("/occurrences/0/reason").asText()).isEqualTo("DEADLINE_PASSED");
        assertThat(refused.at("/occurrences/0/detail").asText())
                .isEqualTo("latest start 2026-11-30T09:10:00Z (startDeadline PT10M), PT4H50M2S late");
        assertThat(dry.at("/occurrences/0/reason").asText()).isEqualTo("DRY_RUN");
        assertThat(forced.at("/counts/pass").asInt()).isEqualTo(2);
    }
}
