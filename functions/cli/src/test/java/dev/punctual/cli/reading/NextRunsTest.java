package dev.punctual.cli.reading;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.time.Schedule;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The next runs {@code jobs} and {@code status} print: local, UTC and relative, fewer when the schedule ends. */
class NextRunsTest {

    private static final Instant NOW = Instant.parse("2027-03-13T12:00:00Z");

    @Test
    void dailyCronAcrossTheSpringDstChange_localOffsetFollowsTheZone_relativeFromNow() {
        List<Map<String, String>> runs = NextRuns.after(Schedule.parse("0 9 * * *", "America/New_York"), NOW, 2);

        assertThat(runs).hasSize(2);
        assertThat(runs.get(0))
                .containsEntry("local", "2027-03-13T09:00:00-05:00")
                .containsEntry("utc", "2027-03-13T14:00:00Z")
                .containsEntry("in", "in 2h 0m");
        assertThat(runs.get(1))
                .containsEntry("local", "2027-03-14T09:00:00-04:00")
                .containsEntry("utc", "2027-03-14T13:00:00Z")
                .containsEntry("in", "in 1d 1h");
    }

    @Test
    void oneTimeSchedule_askedForThree_givesTheOneRunLeft() {
        List<Map<String, String>> runs = NextRuns.after(Schedule.parse("at(2027-06-01T09:30:00)", "UTC"), NOW, 3);

        assertThat(runs).singleElement().satisfies(run -> assertThat(run).containsEntry("utc", "2027-06-01T09:30:00Z"));
    }

    @Test
    void zeroAsked_givesNone() {
        assertThat(NextRuns.after(Schedule.parse("0 9 * * *", "UTC"), NOW, 0)).isEmpty();
    }
}
