package dev.punctual.cli.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

class DurationArgumentTest {

    @CommandLine.Command(name = "maintenance")
    static final class AnyCommand {}

    private static final CommandLine COMMAND = new CommandLine(new AnyCommand());

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "90s, PT1M30S",
        "30m, PT30M",
        "2h, PT2H",
        "1d, PT24H",
        "1h30m, PT1H30M",
        "1d12h, PT36H",
        "2m30s, PT2M30S",
        "1d2h3m4s, PT26H3M4S",
        "PT2H, PT2H"
    })
    void aDurationAsOperatorsWriteIt_isRead(String text, String iso) {
        assertThat(DurationArgument.parse(COMMAND, "--for", text)).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "h", "30m1h", "1h1h", "1.5h", "٥m", "1w", "-2h0"})
    void anythingElse_isRefusedNamingTheOptionAndWhatIsAccepted(String text) {
        assertThatThrownBy(() -> DurationArgument.parse(COMMAND, "--for", text))
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--for: '" + text + "' is not a duration; accepted: 90s, 30m, 2h, 1d, compounds");
    }
}
