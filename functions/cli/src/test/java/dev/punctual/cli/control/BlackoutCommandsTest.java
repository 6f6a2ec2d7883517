package dev.punctual.cli.control;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.HOURLY;
import static dev.punctual.fixtures.FixtureCatalog.QUARTER_HOURLY;
import static dev.punctual.fixtures.FixtureCatalog.SHARED_GROUP;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.cli.EmulatorStageCli;
import dev.punctual.cli.EmulatorStageCli.Result;
import dev.punctual.cli.PunctualCli;
import dev.punctual.testing.DynamoDbHarness;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code punctual blackout add|list|remove} against the emulator, as an operator types them (issue 22, 3):
 * a window set at runtime is one operator's skip per occurrence inside it. The shared lock group "holds"
 * has close-holds every 15 minutes and settle-holds at minute 5, both in Asia/Seoul.
 */
class BlackoutCommandsTest {

    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    /** 02:00-04:00 in Seoul on 1 December: 8 quarter-hours of close-holds and 2 of settle-holds. */
    private static final String FROM = "2026-12-01T02:00:00+09:00";

    private static final String TO = "2026-12-01T04:00:00+09:00";

    private EmulatorStageCli cli;

    @BeforeEach
    void freshStage() {
        cli = new EmulatorStageCli(getClass());
    }

    private Result at(Instant now, int words, String... args) {
        return cli.at(now, words, args);
    }

    private Result blackout(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "blackout";
        System.arraycopy(args, 0, all, 1, args.length);
        return at(NOW, 2, all);
    }

    private Result addGroupWindow() {
        return blackout(
                "add",
                "--group",
                SHARED_GROUP,
                "--from",
                FROM,
                "--to",
                TO,
                "--reason",
                "db migration",
                "--by",
                "alice");
    }

    @Test
    void add_forALockGroup_skipsEachOccurrenceOfItsJobsInTheWindow_andListShowsIt() throws Exception {
        Result added = addGroupWindow();
        Result listed = blackout("list");

        assertThat(added.exitCode()).as(added.err()).isZero();
        JsonNode out = added.json();
        assertThat(out.get("blackout").asText()).startsWith("bo-");
        assertThat(out.get("skipped").asInt()).isEqualTo(10);
        assertThat(out.get("scope").asText()).isEqualTo("group " + SHARED_GROUP);
        JsonNode row = listed.json().at("/blackouts/0");
        assertThat(row.get("blackout").asText()).isEqualTo(out.get("blackout").asText());
        assertThat(row.get("jobs")).extracting(JsonNode::asText).containsExactly(QUARTER_HOURLY, HOURLY);
        assertThat(row.get("first").asText()).isEqualTo("2026-11-30T17:00:00Z");
        assertThat(row.get("last").asText()).isEqualTo("2026-11-30T18:45:00Z");
        assertThat(row.get("planned").asInt()).isEqualTo(10);
        assertThat(row.get("by").asText()).isEqualTo("alice");
        assertThat(row.get("reason").asText()).isEqualTo("db migration");
    }

    @Test
    void anOccurrenceInTheWindow_isSkippedWithTheWindowsReason_andTheEndRuns() throws Exception {
        String id = addGroupWindow().json().get("blackout").asText();
        Instant inside = Instant.parse("2026-11-30T17:15:00Z");
        Instant end = Instant.parse("2026-11-30T19:00:00Z");

        Result skipped = at(inside.plusSeconds(3), 1, "run", QUARTER_HOURLY, "--at", inside.toString());
        Result ran = at(end.plusSeconds(3), 1, "run", QUARTER_HOURLY, "--at", end.toString());

        JsonNode occurrence = skipped.json().at("/occurrences/0");
        assertThat(occurrence.get("outcome").asText()).as(skipped.out()).isEqualTo("SKIP");
        assertThat(occurrence.get("reason").asText()).isEqualTo("OPERATOR_SKIPPED");
        assertThat(skipped.out()).contains("blackout " + id + ": db migration");
        assertThat(ran.json().at("/occurrences/0/outcome").asText())
                .as(ran.out())
                .isEqualTo("PASS");
    }

    @Test
    void remove_unskipsWhatNoDeliveryMet_keepsWhatTookEffect_andListIsEmptyAfter() throws Exception {
        String id = addGroupWindow().json().get("blackout").asText();
        Instant inside = Instant.parse("2026-11-30T17:00:00Z");
        at(inside.plusSeconds(3), 1, "run", QUARTER_HOURLY, "--at", inside.toString());

        Result removed = at(inside.plusSeconds(10), 2, "blackout", "remove", id);
        Result listed = blackout("list");
        Result again = blackout("remove", id);

        assertThat(removed.exitCode()).as(removed.err()).isZero();
        assertThat(removed.json().get("removed").asInt()).isEqualTo(9);
        assertThat(removed.json().get("took_effect").asInt()).isEqualTo(1);
        assertThat(listed.json().at("/blackouts/0/acted").asInt())
                .as("the skip that took effect is that occurrence's record")
                .isEqualTo(1);
        assertThat(listed.json().at("/blackouts/0/planned").asInt()).isZero();
        assertThat(again.exitCode()).isZero();
        assertThat(again.json().get("removed").asInt()).isZero();
    }

    @Test
    void aWindowPastAJobsSkipLimit_isRefused_andThePlannedSkipsAreTakenBack() throws Exception {
        // 14 hours: 56 quarter-hours of close-holds, more than the 50 skips a job may carry ahead.
        Result refused = blackout(
                "add", "--group", SHARED_GROUP, "--from", FROM, "--to", "2026-12-01T16:00:00+09:00", "--reason", "x");
        Result listed = blackout("list");
        Result status = at(NOW, 1, "status", QUARTER_HOURLY);

        assertThat(refused.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(refused.err())
                .contains(
                        QUARTER_HOURLY,
                        "50 skips ahead",
                        "was not set",
                        "of the 50 skips it had planned, 50 were removed");
        assertThat(listed.json().get("blackouts").size()).isZero();
        assertThat(status.json().at("/jobs/0/skips").size()).isZero();
    }

    @Test
    void add_forEveryJob_leavesTheBuiltInWatchdogWatching() throws Exception {
        Result added = blackout("add", "--all", "--from", FROM, "--to", TO, "--reason", "region failover");
        Result listed = blackout("list");

        assertThat(added.exitCode()).as(added.err()).isZero();
        assertThat(listed.json().at("/blackouts/0/jobs"))
                .extracting(JsonNode::asText)
                .contains(QUARTER_HOURLY, HOURLY)
                .doesNotContain(dev.punctual.runtime.MissedRunWatchdog.ID);
    }

    @Test
    void anOperatorsOwnSkipWhoseReasonLooksLikeABlackout_isNotListedOrRemovedAsOne() throws Exception {
        Result skipped = at(
                NOW, 1, "skip", QUARTER_HOURLY, "--at", "2026-11-30T17:00:00Z", "--reason", "blackout bo-a: by hand");

        Result listed = blackout("list");
        Result removed = blackout("remove", "bo-a");

        assertThat(skipped.exitCode()).as(skipped.err()).isZero();
        assertThat(listed.exitCode()).as(listed.err()).isZero();
        assertThat(listed.json().get("blackouts").size()).isZero();
        assertThat(removed.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(removed.err()).contains("'bo-a' has no skips ahead");
    }

    @Test
    void badWindowsAndScopes_exitTwoNamingTheOption_andConnectToNothing() {
        List<Result> refused = List.of(
                blackout("add", "--from", FROM, "--to", TO, "--reason", "x"),
                blackout("add", "--job", DAILY, "--all", "--from", FROM, "--to", TO, "--reason", "x"),
                blackout("add", "--all", "--from", TO, "--to", FROM, "--reason", "x"),
                blackout("add", "--all", "--from", FROM, "--to", "2026-12-09T02:00:01+09:00", "--reason", "x"),
                blackout("add", "--all", "--from", FROM, "--to", "2026-12-04T02:00:00+09:00", "--reason", "x"),
                blackout("add", "--group", "hold", "--from", FROM, "--to", TO, "--reason", "x"),
                blackout(
                        "add",
                        "--all",
                        "--from",
                        "2026-11-29T00:00:00Z",
                        "--to",
                        "2026-11-30T00:00:00Z",
                        "--reason",
                        "x"),
                blackout("add", "--all", "--from", FROM, "--to", TO, "--reason", " "));

        assertThat(refused).extracting(Result::exitCode).containsOnly(PunctualCli.INVALID_INPUT);
        assertThat(refused.get(0).err()).contains("--job, --group, --all: none given");
        assertThat(refused.get(1).err()).contains("more than one given");
        assertThat(refused.get(2).err()).contains("--to:", "is not after --from");
        assertThat(refused.get(3).err()).contains("longer than 7 days");
        assertThat(refused.get(4).err()).contains("more than 200 occurrences");
        assertThat(refused.get(5).err()).contains("--group: 'hold'", SHARED_GROUP);
        assertThat(refused.get(6).err()).contains("has passed");
        assertThat(refused.get(7).err()).contains("--reason: empty");
        assertThat(DynamoDbHarness.client().listTables().tableNames()).doesNotContain(cli.ledgerTable());
    }
}
