package dev.punctual.cli.input;

import static dev.punctual.fixtures.FixtureCatalog.DAILY;
import static dev.punctual.fixtures.FixtureCatalog.DESTRUCTIVE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.PunctualCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The completion script completes job ids (the catalog's) and maintenance's on|off, not only option names. */
class CompletionTest {

    private static String script() {
        StringWriter out = new StringWriter();
        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(new StringWriter()),
                Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC),
                "generate-completion");
        assertThat(code).isZero();
        return out.toString();
    }

    @Test
    void theScript_offersTheCatalogsJobIds() {
        assertThat(script()).contains(DAILY, DESTRUCTIVE, "missed-run-watchdog");
    }

    @Test
    void theScript_offersOnAndOffForMaintenance() {
        assertThat(script()).containsPattern("on off|\"on\" \"off\"|on\\s+off");
    }

    @Test
    void theJobIds_areReadOnlyWhenAsked() {
        Completions.JobIds ids = new Completions.JobIds();

        assertThat(ids).contains(DAILY);
    }
}
