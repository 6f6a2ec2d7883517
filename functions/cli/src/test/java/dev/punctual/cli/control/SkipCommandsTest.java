package dev.punctual.cli.control;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.cli.EmulatorStageCli;
import dev.punctual.cli.EmulatorStageCli.Result;
import dev.punctual.cli.PunctualCli;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code punctual skip} and {@code unskip} against the emulator, as an operator types them, with what
 * {@code status} and a run then say (decision 0033). The job runs daily at 09:00 in New York (14:00 UTC).
 */
class SkipCommandsTest {

    /** Just after Monday's 09:00 in New York: Tuesday's occurrence is the next one. */
    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    private static final String TUESDAY = "2026-12-01T14:00:00Z";

    private EmulatorStageCli stage;

    @BeforeEach
    void freshStage() {
        stage = new EmulatorStageCli(getClass());
    }

    private Result cli(String... args) {
        return at(NOW, args);
    }

    /** The command, then the stage's options, then the test's own (so they override, e.g. --output table). */
    private Result at(Instant now, String... args) {
        return stage.at(now, 1, args);
    }

    private Result skipTuesday() {
        return cli("skip", DAILY, "--at", TUESDAY, "--reason", "provider outage", "--by", "alice");
    }

    @Test
    void skip_ofTheNextOccurrence_isPlanned_withWhoAndWhy() throws Exception {
        Result skipped = skipTuesday();

        assertThat(skipped.exitCode()).as(skipped.err()).isZero();
        JsonNode out = skipped.json();
        assertThat(out.get("skip").asText()).isEqualTo("planned");
        assertThat(out.get("at").asText()).isEqualTo(TUESDAY);
        assertThat(out.get("by").asText()).isEqualTo("alice");
        assertThat(out.get("reason").asText()).isEqualTo("provider outage");
    }

    @Test
    void status_listsThePlannedSkip_inJson_andMarksItsNextOccurrenceInTheTable() throws Exception {
        assertThat(skipTuesday().exitCode()).isZero();

        Result json = cli("status", DAILY);
        Result table = cli("status", DAILY, "--output", "table");

        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode skip = json.json().at("/jobs/0/skips/0");
        assertThat(skip.get("at").asText()).isEqualTo(TUESDAY);
        assertThat(skip.get("state").asText()).isEqualTo("planned");
        assertThat(skip.get("by").asText()).isEqualTo("alice");
        assertThat(table.out())
                .contains("2026-12-01T09:00:00-05:00 SKIPPED")
                .contains(DAILY + " at " + TUESDAY + ": skipped by alice at " + NOW + ": provider outage (planned;");
        assertThat(table.out()).doesNotContain("2026-12-02T09:00:00-05:00 SKIPPED");
    }

    @Test
    void skip_again_exitsTwo_namingWhoSkippedItAndWhy() {
        assertThat(skipTuesday().exitCode()).isZero();

        Result again = cli("skip", DAILY, "--at", TUESDAY, "--reason", "another", "--by", "bob");

        assertThat(again.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(again.err()).contains("--at:", "already skipped, by alice", "provider outage", "unskip it first");
    }

    @Test
    void skip_sUndoLine_repeatsTheOptionsItRanWith_andRunAsPrintedItUnskips() throws Exception {
        Result skipped = cli("skip", DAILY, "--at", TUESDAY, "--reason", "provider outage", "--output", "table");
        String undo = skipped.out()
                .lines()
                .filter(line -> line.startsWith("undo before it is delivered: punctual "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no undo line in " + skipped.out()));

        // Before, it said "--stage dev": on an emulator that reaches AWS, not the table the skip was written to.
        assertThat(undo)
                .contains("--endpoint " + DynamoDbHarness.backend().endpoint())
                .contains("--ledger-table " + stage.ledgerTable());
        String[] typed = undo.substring("undo before it is delivered: punctual ".length())
                .split(" ");
        Result unskipped = EmulatorStageCli.typed(NOW, typed);
        assertThat(unskipped.exitCode()).as(unskipped.err()).isZero();
        assertThat(cli("status", DAILY).json().at("/jobs/0/skips")).isEmpty();
    }

    @Test
    void skip_atATimeThatIsNoOccurrence_exitsTwoNamingTheNearest_andWritesNothing() {
        Result odd = cli("skip", DAILY, "--at", "2026-12-01T15:00:00Z", "--reason", "x");

        assertThat(odd.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(odd.err()).contains("--at:", "is not an occurrence", TUESDAY, "2026-12-02T14:00:00Z");
        assertThat(DynamoDbHarness.client().listTables().tableNames()).doesNotContain(stage.ledgerTable());
    }

    @Test
    void skip_withAnEmptyReason_exitsTwoNamingTheOption() {
        Result empty = cli("skip", DAILY, "--at", TUESDAY, "--reason", " ");

        assertThat(empty.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(empty.err()).contains("--reason: empty");
    }

    @Test
    void unskip_removesThePlannedSkip_statusNoLongerListsIt_andASecondUnskipExitsTwo() throws Exception {
        assertThat(skipTuesday().exitCode()).isZero();

        Result removed = cli("unskip", DAILY, "--at", TUESDAY);
        Result status = cli("status", DAILY);
        Result again = cli("unskip", DAILY, "--at", TUESDAY);

        assertThat(removed.exitCode()).as(removed.err()).isZero();
        assertThat(removed.json().get("skip").asText()).isEqualTo("removed");
        assertThat(status.json().at("/jobs/0/skips").size()).isZero();
        assertThat(again.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(again.err()).contains("has no skip to remove");
    }

    @Test
    void aRunOfTheSkippedOccurrence_skipsItWithTheOperatorsReason_andThenUnskipIsRefused() throws Exception {
        assertThat(skipTuesday().exitCode()).isZero();
        Instant tuesday = Instant.parse(TUESDAY).plusSeconds(3);

        Result run = at(tuesday, "run", DAILY, "--at", TUESDAY);
        Result status = at(tuesday, "status", DAILY);
        Result unskip = at(tuesday, "unskip", DAILY, "--at", TUESDAY);

        JsonNode occurrence = run.json().at("/occurrences/0");
        assertThat(occurrence.get("outcome").asText()).as(run.out()).isEqualTo("SKIP");
        assertThat(occurrence.get("reason").asText()).isEqualTo("OPERATOR_SKIPPED");
        assertThat(run.out()).contains("skipped by alice", "provider outage");
        assertThat(status.json().at("/jobs/0/last/status").asText()).isEqualTo("SKIPPED");
        assertThat(unskip.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(unskip.err()).contains("already took effect");
    }
}
