package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.SHARED_GROUP;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.EmulatorStageCli.Result;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A contradiction of options is refused before the first request (issue 40, 4): each command that acts
 * on a stage, given {@code --json} with {@code --output table}, exits 2 naming both, and its stage's
 * ledger table is never even created, so nothing ran, no hold was taken and no skip was written. Before
 * the fix each of them acted first (the job ran, the hold was taken) and refused afterwards.
 */
class OptionsCheckedBeforeActingTest {

    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    private static final String TUESDAY = "2026-12-01T14:00:00Z";

    static Stream<Arguments> commandsOnAStage() {
        return Stream.of(
                Arguments.of(1, List.of("run", DAILY, "--at", "2026-11-30T14:00:00Z")),
                Arguments.of(
                        1, List.of("replay", DAILY, "--from", "2026-11-27T00:00:00Z", "--to", "2026-11-30T00:00:00Z")),
                Arguments.of(2, List.of("maintenance", "on", "--reason", "db upgrade", "--for", "10m")),
                Arguments.of(2, List.of("maintenance", "off")),
                Arguments.of(1, List.of("skip", DAILY, "--at", TUESDAY, "--reason", "provider outage")),
                Arguments.of(1, List.of("unskip", DAILY, "--at", TUESDAY)),
                Arguments.of(
                        2,
                        List.of(
                                "blackout",
                                "add",
                                "--group",
                                SHARED_GROUP,
                                "--from",
                                "2026-12-01T02:00:00+09:00",
                                "--to",
                                "2026-12-01T04:00:00+09:00",
                                "--reason",
                                "db migration")),
                Arguments.of(2, List.of("blackout", "remove", "bo-0000000000")),
                Arguments.of(2, List.of("blackout", "list")),
                Arguments.of(1, List.of("status", DAILY)),
                Arguments.of(1, List.of("history", DAILY)));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("commandsOnAStage")
    void jsonWithOutputTable_isRefusedBeforeTheFirstRequest(int words, List<String> command) {
        EmulatorStageCli stage = new EmulatorStageCli(getClass());
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--output", "table", "--json"));

        Result refused = stage.at(NOW, words, args.toArray(String[]::new));

        assertThat(refused.exitCode()).as(refused.err()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err()).contains("--json, --output table: not together");
        assertThat(DynamoDbHarness.client().listTables().tableNames())
                .as("nothing reached the stage: its ledger table was never created")
                .doesNotContain(stage.ledgerTable());
    }

    @Test
    void maintenanceHold_withJsonAndOutputTable_neverTakesTheHoldNorRunsItsCommand() {
        EmulatorStageCli stage = new EmulatorStageCli(getClass());

        Result refused = stage.at(
                NOW, 2, "maintenance", "hold", "--reason", "load data", "--output", "table", "--json", "--", "false");

        assertThat(refused.exitCode()).as(refused.err()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err()).contains("--json, --output table: not together");
        assertThat(DynamoDbHarness.client().listTables().tableNames()).doesNotContain(stage.ledgerTable());
    }
}
