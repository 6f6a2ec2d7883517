package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.stage.CliContext;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/**
 * {@code --version} alone is answered before picocli is built (decision 0052); picocli still answers it
 * when anything else is on the command line. Both must print the same and exit the same.
 */
class VersionFastPathTest {

    private record Run(int exit, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = PunctualCli.execute(
                new PrintWriter(out), new PrintWriter(err), CliContext.withClock(Clock.systemUTC()), args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void versionAlone_printsWhatPicocliPrints_andExitsZero() {
        Run fast = run("--version");
        Run shortForm = run("-V");
        Run picocli = run("--version", "--version"); // two options: not alone, so picocli answers

        assertThat(PunctualCli.versionAlone("--version")).isTrue();
        assertThat(PunctualCli.versionAlone("--version", "--version")).isFalse();
        assertThat(picocli.exit()).isZero();
        assertThat(picocli.out()).startsWith("punctual ");
        assertThat(fast).isEqualTo(picocli);
        assertThat(shortForm).isEqualTo(picocli);
    }

    @Test
    void onlyTheVersionOptionAlone_takesTheFastPath() {
        assertThat(PunctualCli.versionAlone()).isFalse();
        assertThat(PunctualCli.versionAlone("jobs")).isFalse();
        assertThat(PunctualCli.versionAlone("jobs", "--version")).isFalse();
        assertThat(PunctualCli.versionAlone("--Version")).isFalse();
    }
}
