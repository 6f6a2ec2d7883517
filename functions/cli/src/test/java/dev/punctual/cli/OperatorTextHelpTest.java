package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.stage.CliContext;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --by} and {@code --reason} are declared once (input.OperatorWho, OperatorReason; decision 0048)
 * and each command words their help for what it does, from the control room's resource bundle: every
 * command's help says what it said when each command declared them itself, word for word.
 */
class OperatorTextHelpTest {

    /** Each command's {@code --by} and {@code --reason} help, as it was before the mixins. */
    static final Map<String, String[]> HELP = Map.of(
            "skip",
                    new String[] {
                        "Who skips it (default: $USER)", "Why (shown in status and in the occurrence's outcome line)"
                    },
            "pause",
                    new String[] {
                        "Who pauses it (default: $USER)",
                        "Why (shown in status, jobs and each paused occurrence's outcome line)"
                    },
            "cancel",
                    new String[] {
                        "Who cancels it (default: $USER)",
                        "Why (stored redacted in the occurrence's outcome, shown by status)"
                    },
            "approve", new String[] {"Who approves it (default: $USER)", "Why (optional; shown in status)"},
            "maintenance", new String[] {"Who set it (default: $USER)", "Why (required with on); shown in every skip"},
            "blackout add",
                    new String[] {
                        "Who sets it (default: $USER)",
                        "Why (shown in status, in blackout list and in each skipped occurrence's outcome)"
                    });

    static java.util.stream.Stream<String> commands() {
        return HELP.keySet().stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void eachCommandsHelp_wordsByAndReasonForWhatItDoes(String command) {
        StringWriter out = new StringWriter();
        String[] args = (command + " --help").split(" ");
        int code = PunctualCli.execute(
                new PrintWriter(out), new PrintWriter(new StringWriter()), CliContext.withClock(CliRun.NOW), args);

        // Picocli wraps a long description over lines: compare with the white space folded.
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(code).isZero();
        assertThat(help).contains("--by=WHO " + HELP.get(command)[0]).contains("--reason=TEXT " + HELP.get(command)[1]);
    }
}
