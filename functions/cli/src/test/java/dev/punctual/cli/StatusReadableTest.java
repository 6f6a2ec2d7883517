package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** status prints lag for people ("2h 46m"), not as ISO-8601 ("PT2H46M25.371S"). */
class StatusReadableTest {

    @ParameterizedTest(name = "{0} ms -> {1}")
    @CsvSource({
        "0,          0s",
        "12999,      12s",
        "312000,     5m 12s",
        "9985371,    2h 46m",
        "183600000,  2d 3h",
    })
    void readable_showsTheTwoLargestUnits(long millis, String expected) {
        assertThat(StatusCommand.readable(Duration.ofMillis(millis))).isEqualTo(expected);
    }
}
