package dev.punctual.cli.reading;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.CliRun;
import dev.punctual.cli.EmulatorStageCli;
import dev.punctual.cli.EmulatorStageCli.Result;
import dev.punctual.cli.PunctualCli;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Tables people can read (issue 40, 9): {@code jobs} and {@code status} fit a 120-column terminal by
 * default, {@code -o wide} shows every column, {@code --columns} the ones a script names, and the JSON
 * keeps every field. Before, {@code jobs} was about 230 columns wide and {@code status} wrapped.
 */
class NarrowTablesTest {

    private static final int TERMINAL = 120;

    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    private static int widest(String text) {
        return text.lines().mapToInt(String::length).max().orElse(0);
    }

    private static List<String> header(String table) {
        return Arrays.asList(table.lines().findFirst().orElseThrow().trim().split(" {2,}"));
    }

    @Test
    void jobs_byDefault_fitsATerminal_withTheJobWhereAndWhenItRunsNext() {
        CliRun jobs = CliRun.of("jobs", "--next", "3");

        assertThat(jobs.code()).as(jobs.err()).isZero();
        assertThat(widest(jobs.out())).isLessThanOrEqualTo(TERMINAL);
        assertThat(header(jobs.out())).containsExactly("JOB", "DEPLOYED", "ZONE", "NEXT (LOCAL)", "IN");
    }

    @Test
    void jobs_wide_showsEveryColumn_andTheJson_everyField() throws Exception {
        CliRun wide = CliRun.of("jobs", "-o", "wide");
        CliRun json = CliRun.of("jobs", "-o", "json");

        assertThat(header(wide.out())).containsExactly(JobsCommand.HEADER);
        JsonNode job = new ObjectMapper().readTree(json.out()).at("/jobs/0");
        assertThat(job.has("catch_up") && job.has("lock_group") && job.has("max_attempts") && job.has("tables"))
                .as(job.toString())
                .isTrue();
    }

    @Test
    void jobs_columns_showsTheColumnsNamed_inTheirOrder() {
        CliRun picked = CliRun.of("jobs", "--columns", "in,job,lock-group");

        assertThat(picked.code()).as(picked.err()).isZero();
        assertThat(header(picked.out())).containsExactly("IN", "JOB", "LOCK GROUP");
    }

    @Test
    void columns_thatTheTableDoesNotHave_orWithJson_areRefused_namingWhatIsAccepted() {
        CliRun unknown = CliRun.of("jobs", "--columns", "job,nxt-local");
        CliRun withJson = CliRun.of("jobs", "--columns", "job", "--json");

        assertThat(unknown.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(unknown.err())
                .startsWith("punctual jobs: --columns: 'nxt-local' is not a column of jobs; accepted: job, schedule,")
                .contains("next-local");
        assertThat(withJson.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(withJson.err()).contains("--columns, --output json: not together");
        assertThat(unknown.out()).isEmpty();
    }

    @Test
    void wideWithJson_isAContradiction_likeTableWithJson() {
        CliRun both = CliRun.of("jobs", "-o", "wide", "--json");

        assertThat(both.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(both.err()).contains("--json, --output wide: not together");
    }

    @Test
    void status_underAHoldWithALongReason_fitsATerminal_sayingWhatHoldsIt_andWideSaysWhoAndWhy() {
        EmulatorStageCli stage = new EmulatorStageCli(getClass());
        String reason = "loading the synthetic members of the quarterly load test into the staging tables again";
        Result on = stage.at(
                NOW, 2, "maintenance", "on", "--reason", reason, "--for", "2h", "--by", "alice", "-o", "table");
        assertThat(on.exitCode()).as(on.err()).isZero();

        Result narrow = stage.at(NOW, 1, "status", "-o", "table");
        Result wide = stage.at(NOW, 1, "status", DAILY, "-o", "wide");

        assertThat(narrow.exitCode()).as(narrow.err()).isZero();
        assertThat(narrow.out().lines().takeWhile(line -> !line.isBlank()).mapToInt(String::length))
                .allSatisfy(width -> assertThat(width).isLessThanOrEqualTo(TERMINAL));
        assertThat(header(narrow.out())).containsExactly("JOB", "LAST", "LAG", "NEXT (LOCAL)", "IN", "HELD");
        assertThat(narrow.out()).contains("maintenance").doesNotContain(reason);
        assertThat(header(wide.out())).containsExactly(StatusCommand.HEADER);
        assertThat(wide.out()).contains(reason, "alice");
        stage.at(NOW, 2, "maintenance", "off", "--by", "alice");
    }
}
