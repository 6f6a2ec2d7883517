package dev.punctual.cli.reading;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.output.RelativeTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
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
        assertThat(RelativeTime.readable(Duration.ofMillis(millis))).isEqualTo(expected);
    }

    @Test
    void lastColumn_namesTheEarlierAttemptsTheRunItemKept_andNothingWithoutThem() {
        Map<String, Object> abandonedThenFailed = Map.of(
                "status",
                "SUCCEEDED",
                "earlier",
                List.of(Map.of("attempt", 1, "status", "ABANDONED"), Map.of("attempt", 2, "status", "FAILED")));

        assertThat(StatusCommand.earlier(abandonedThenFailed)).isEqualTo(" after ABANDONED#1, FAILED#2");
        assertThat(StatusCommand.earlier(Map.of("status", "SUCCEEDED", "earlier", List.of())))
                .isEmpty();
    }
}
