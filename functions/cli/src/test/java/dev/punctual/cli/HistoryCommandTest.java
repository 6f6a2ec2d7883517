package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.cli.EmulatorStageCli.Result;
import dev.punctual.ledger.Claim;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.testing.DynamoDbHarness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code punctual history} against the emulator, as an operator types it. The job runs daily at 09:00 in
 * New York (14:00 UTC in November) and catches up at most two older occurrences within three days.
 */
class HistoryCommandTest {

    private EmulatorStageCli stage;

    @BeforeEach
    void freshStage() {
        stage = new EmulatorStageCli(getClass());
    }

    private static Instant day(int november) {
        return Instant.parse("2026-11-%02dT14:00:00Z".formatted(november));
    }

    private Result at(Instant now, String... args) {
        return stage.at(now, 1, args);
    }

    /** The scheduler's delivery of the day's occurrence, two seconds after it, through the real handler. */
    private void delivered(int november) throws Exception {
        delivered(november, 0);
    }

    /** As {@link #delivered(int)}, exiting as expected: {@link PunctualCli#RAN_NOTHING} for a delivery whose outcome is a skip. */
    private void delivered(int november, int exitCode) throws Exception {
        Path event = Files.createTempFile("scheduled", ".json");
        Files.writeString(event, """
                {"kind":"scheduled","job":"%s","scheduled_time":"%s","execution_id":"%s","attempt_number":"1",
                 "schedule_arn":"arn:aws:scheduler:us-east-1:123456789012:schedule/punctual-dev/%s"}""".formatted(DAILY, day(november), UUID.randomUUID(), DAILY));
        Result result = at(day(november).plusSeconds(2), "invoke", "--event", event.toString());
        assertThat(result.exitCode()).as(result.out() + result.err()).isEqualTo(exitCode);
    }

    private static List<String> column(JsonNode rows, String field) {
        List<String> values = new ArrayList<>();
        rows.forEach(r -> values.add(r.get(field).asText()));
        return values;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--last 0               | --last: '0' is out of range; accepted: 1-500",
                "--last 501             | --last: '501' is out of range; accepted: 1-500",
                "--last 3 --since 2026-11-20T00:00:00Z | --last, --since: not together",
                "--since yesterday      | --since: 'yesterday'",
                "--since 2026-11-20T00:00:00 | --since: '2026-11-20T00:00:00'",
            })
    void badOrContradictoryOptions_exitTwoNamingTheField_beforeAnyRequest(String options, String message) {
        List<String> args = new ArrayList<>(List.of("history", DAILY));
        args.addAll(List.of(options.trim().split(" +")));

        Result refused = at(day(30), args.toArray(String[]::new));

        assertThat(refused.exitCode()).as(refused.err()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err()).contains(message.trim());
        assertThat(DynamoDbHarness.client().listTables().tableNames()).doesNotContain(stage.ledgerTable());
    }

    @Test
    void aJobThatNeverRan_hasNoRows_andSaysSo() throws Exception {
        Result json = at(day(30), "history", DAILY);
        Result table = at(day(30), "history", DAILY, "--output", "table");

        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.json().get("rows")).isEmpty();
        assertThat(json.json().get("more").asBoolean()).isFalse();
        assertThat(table.out()).contains("no occurrence recorded");
    }

    @Test
    void entity_ofAJobOfOneSchedule_isRefusedNamingTheOption() {
        Result refused = at(day(30), "history", DAILY, "--entity", "tenant-1");

        assertThat(refused.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err()).contains("--entity:", "has one schedule of its own");
    }

    /**
     * Deliveries, an operator's run, a replay, a catch-up, an operator's skip and a failure on the emulator,
     * then history: each occurrence once, newest first, with the trigger that started it.
     */
    @Test
    void afterDeliveriesARunAReplayACatchUpASkipAndAFailure_historyListsThemNewestFirst_withTheirTriggers()
            throws Exception {
        delivered(23);
        // The 24th and 25th are not delivered: the 26th's delivery catches them up first.
        delivered(26);
        Result manual = at(day(26).plusSeconds(60), "run", DAILY, "--at", day(22).toString());
        assertThat(manual.exitCode()).as(manual.err()).isZero();
        Result replay = at(
                day(26).plusSeconds(120),
                "replay",
                DAILY,
                "--from",
                day(20).toString(),
                "--to",
                day(21).plusSeconds(1).toString());
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        Result skip = at(day(26).plusSeconds(180), "skip", DAILY, "--at", day(27).toString(), "--reason", "audit");
        assertThat(skip.exitCode()).as(skip.err()).isZero();
        delivered(27, PunctualCli.RAN_NOTHING);
        // A failure, as the function records one: a scheduled claim of the 28th completed as failed.
        RunLedger ledger = DynamoDbRunLedger.create(
                DynamoDbHarness.client(),
                stage.ledgerTable(),
                Clock.fixed(day(28).plusSeconds(5), ZoneOffset.UTC),
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {});
        Claim claim = ((ClaimResult.Claimed) ledger.claim(
                        ClaimRequest.scheduled(new RunKey(DAILY, day(28)), 1, 3, day(28).plusSeconds(300))))
                .claim();
        ledger.complete(claim, new Outcome.Failed("IllegalStateException: upstream down"));

        Result json = at(day(28).plusSeconds(60), "history", DAILY);
        Result table = at(day(28).plusSeconds(60), "history", DAILY, "--output", "table");

        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode rows = json.json().get("rows");
        assertThat(column(rows, "occurrence"))
                .containsExactly(
                        day(28).toString(),
                        day(27).toString(),
                        day(26).toString(),
                        day(25).toString(),
                        day(24).toString(),
                        day(23).toString(),
                        day(22).toString(),
                        day(21).toString(),
                        day(20).toString());
        assertThat(column(rows, "status"))
                .containsExactly(
                        "FAILED",
                        "SKIPPED",
                        "SUCCEEDED",
                        "SUCCEEDED",
                        "SUCCEEDED",
                        "SUCCEEDED",
                        "SUCCEEDED",
                        "SUCCEEDED",
                        "SUCCEEDED");
        assertThat(column(rows, "trigger"))
                .containsExactly(
                        "schedule",
                        "schedule",
                        "schedule",
                        "catch-up",
                        "catch-up",
                        "schedule",
                        "operator",
                        "replay",
                        "replay");
        assertThat(json.json().get("more").asBoolean()).isFalse();
        assertThat(json.json().get("job").asText()).isEqualTo(DAILY);
        assertThat(rows.get(0).get("error").asText()).contains("upstream down");
        assertThat(rows.get(1).get("reason").asText()).contains("OPERATOR_SKIPPED");
        assertThat(rows.get(0).get("local").asText()).isEqualTo("2026-11-28T09:00:00-05:00");
        assertThat(rows.get(2).get("fence").asLong()).isPositive();
        assertThat(rows.get(2).get("attempts").asInt()).isEqualTo(1);
        assertThat(table.out())
                .contains("OCCURRENCE (LOCAL)", "STATUS", "TRIGGER", "REASON")
                .contains("2026-11-28T09:00:00-05:00", "upstream down", "catch-up", "operator", "replay");
        assertThat(table.out().lines().mapToInt(String::length).max().orElse(0))
                .as("the default columns fit a 120-column terminal")
                .isLessThanOrEqualTo(120);
        assertThat(table.out().indexOf("2026-11-28T09:00:00-05:00"))
                .isLessThan(table.out().indexOf("2026-11-20T09:00:00-05:00"));

        Result lastThree = at(day(28).plusSeconds(60), "history", DAILY, "--last", "3");
        Result since = at(day(28).plusSeconds(60), "history", DAILY, "--since", day(26).toString());
        Result wide = at(day(28).plusSeconds(60), "history", DAILY, "--last", "3", "--output", "wide");
        assertThat(column(lastThree.json().get("rows"), "occurrence"))
                .containsExactly(day(28).toString(), day(27).toString(), day(26).toString());
        assertThat(lastThree.json().get("more").asBoolean()).isTrue();
        assertThat(column(since.json().get("rows"), "occurrence"))
                .containsExactly(day(28).toString(), day(27).toString(), day(26).toString());
        assertThat(since.json().get("more").asBoolean()).isFalse();
        assertThat(wide.out())
                .contains("OCCURRENCE (UTC)", "FENCE", "FINISHED (UTC)", "older occurrences are recorded");
    }
}
