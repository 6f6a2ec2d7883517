package dev.punctual.cli;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.punctual.cli.EmulatorStageCli.Result;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code punctual pause} and {@code resume} against the emulator, as an operator types them (decision 0040):
 * what they print, what {@code status} then shows, what a run then says, and the input refused before any
 * request. The job runs daily at 09:00 in New York (14:00 UTC).
 */
class PauseCommandsTest {

    /** Just after Monday's 09:00 in New York: Tuesday's occurrence is the next one. */
    private static final Instant NOW = Instant.parse("2026-11-30T14:00:02Z");

    private static final String TUESDAY = "2026-12-01T14:00:00Z";

    private EmulatorStageCli stage;

    @BeforeEach
    void freshStage() {
        stage = new EmulatorStageCli(getClass());
    }

    private Result at(Instant now, String... args) {
        return stage.at(now, 1, args);
    }

    private Result cli(String... args) {
        return at(NOW, args);
    }

    @Test
    void pause_thenStatusShowsWhoWhySince_aRunIsRecordedPaused_andResumeLetsItRun() throws Exception {
        Result paused = cli("pause", DAILY, "--reason", "supplier outage", "--by", "alice");

        assertThat(paused.exitCode()).as(paused.err()).isZero();
        JsonNode out = paused.json();
        assertThat(out.get("paused_by").asText()).isEqualTo("alice");
        assertThat(out.get("reason").asText()).isEqualTo("supplier outage");
        assertThat(out.get("since").asText()).isEqualTo(NOW.toString());
        assertThat(out.get("run_in_flight").asBoolean()).isFalse();
        JsonNode status = cli("status", DAILY).json();
        assertThat(status.toString()).contains("\"paused_by\":\"alice\"", "supplier outage");

        Instant tuesday = Instant.parse(TUESDAY).plusSeconds(2);
        Result run = at(tuesday, "run", DAILY, "--at", TUESDAY);
        assertThat(run.out()).contains("PAUSED");

        Result resumed = at(tuesday, "resume", DAILY, "--catch-up");
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        Result again = at(tuesday, "run", DAILY, "--at", TUESDAY);
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out()).doesNotContain("PAUSED");
    }

    @Test
    void pauseAgain_exitsTwo_namingWhosePauseHolds() {
        assertThat(cli("pause", DAILY, "--reason", "outage", "--by", "alice").exitCode())
                .isZero();

        Result again = cli("pause", DAILY, "--reason", "other", "--by", "bob");

        assertThat(again.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(again.err()).contains("already paused by alice");
    }

    @Test
    void contradictoryOrMissingChoices_areRefusedBeforeAnyRequest_namingTheOption() throws Exception {
        Result neither = cli("resume", DAILY);
        Result both = cli("resume", DAILY, "--catch-up", "--skip-paused");
        Result thenAlone = cli("pause", DAILY, "--reason", "x", "--then", "skip");
        Result untilAlone = cli("pause", DAILY, "--reason", "x", "--until", "2026-12-01T00:00:00Z");
        Result jobAndGroup = cli("pause", DAILY, "--group", DAILY, "--reason", "x");

        assertThat(neither.err()).contains("--catch-up, --skip-paused: neither");
        assertThat(both.err()).contains("--catch-up, --skip-paused: both");
        assertThat(thenAlone.err()).contains("--then: only with --until");
        assertThat(untilAlone.err()).contains("--then: required with --until");
        assertThat(jobAndGroup.err()).contains("JOB, --group: both given");
        assertThat(java.util.List.of(neither, both, thenAlone, untilAlone, jobAndGroup))
                .allSatisfy(r -> assertThat(r.exitCode()).isEqualTo(PunctualCli.INVALID_INPUT));
        JsonNode pause = cli("status", DAILY).json().get("paused");
        assertThat(pause == null || pause.isNull())
                .as("nothing was written: %s", pause)
                .isTrue();
    }
}
