package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.cli.EmulatorStageCli.Result;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code punctual approve} against the emulator, as an operator types it (decision 0041): the fixture's
 * destructive job needs an approval where destructive jobs may run; its next occurrence is Sunday 03:00
 * in Berlin.
 */
class ApproveCommandTest {

    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    private static final String SUNDAY = "2026-12-06T02:00:00Z";

    private EmulatorStageCli stage;

    @BeforeEach
    void freshStage() {
        stage = new EmulatorStageCli(getClass());
    }

    private Result cli(String... args) {
        return stage.at(NOW, 1, args);
    }

    private Result approveSunday() {
        return cli("approve", DESTRUCTIVE, "--at", SUNDAY, "--reason", "list checked", "--by", "alice");
    }

    @Test
    void approve_showsThePreview_andRecordsWhoApprovedWhatWithIt() throws Exception {
        Result approved = approveSunday();

        assertThat(approved.exitCode()).as(approved.err()).isZero();
        assertThat(approved.err()).contains("preview of " + DESTRUCTIVE + " at " + SUNDAY + ": ");
        JsonNode out = approved.json();
        assertThat(out.get("approval").asText()).isEqualTo("planned");
        assertThat(out.get("at").asText()).isEqualTo(SUNDAY);
        assertThat(out.get("by").asText()).isEqualTo("alice");
        assertThat(out.get("reason").asText()).isEqualTo("list checked");
        // The occurrence is still ahead: its dry run is counted from the data as it stands now.
        assertThat(out.get("preview").asText()).startsWith("would run");
    }

    @Test
    void status_listsThePendingApproval_withWhoApprovedIt() throws Exception {
        assertThat(approveSunday().exitCode()).isZero();

        Result status = cli("status", DESTRUCTIVE);

        assertThat(status.exitCode()).as(status.err()).isZero();
        JsonNode approval = status.json().at("/jobs/0/approvals/0");
        assertThat(approval.get("at").asText()).isEqualTo(SUNDAY);
        assertThat(approval.get("by").asText()).isEqualTo("alice");
    }

    @Test
    void approve_again_exitsTwo_namingTheFirstApproval() {
        assertThat(approveSunday().exitCode()).isZero();

        Result again = cli("approve", DESTRUCTIVE, "--at", SUNDAY, "--by", "bob");

        assertThat(again.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(again.err()).contains("already approved by alice").contains("one approval per occurrence");
    }

    @Test
    void approve_ofAJobThatNeedsNone_orATimeThatIsNoOccurrence_isRefused_namingWhatIsAccepted() {
        Result none = cli("approve", DAILY, "--at", "2026-12-01T14:00:00Z");
        Result notAnOccurrence = cli("approve", DESTRUCTIVE, "--at", "2026-12-06T02:30:00Z");

        assertThat(none.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(none.err()).contains("needs no approval");
        assertThat(notAnOccurrence.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(notAnOccurrence.err()).contains("--at: '2026-12-06T02:30:00Z' is not an occurrence");
    }
}
