package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.stage.StageConfigException;
import dev.punctual.time.OccurrenceCalculator;
import dev.punctual.time.Schedule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A deployed rate() must fire at the planner's occurrences (docs/time.md, "rate() anchor"). EventBridge
 * anchors a rate at the schedule's creation and refuses a StartDate in the past, so the app deploys the
 * equivalent UTC cron, and refuses a rate that has none.
 */
class RateScheduleTest {

    /** Three days around Berlin's spring-forward night, when elapsed time and wall time part. */
    private static final Instant FROM = Instant.parse("2027-03-27T00:00:00Z");

    private static final Instant TO = Instant.parse("2027-03-30T00:00:00Z");

    @Test
    void rateEvery15Minutes_inBerlinAcrossSpringForward_deliversExactlyThePlannersOccurrences() {
        Map<String, Object> deployed = deployedSchedule(job("quarter-hourly", "rate(15 minutes)"));
        Schedule asDeployed = Schedule.parse(
                (String) deployed.get("ScheduleExpression"), (String) deployed.get("ScheduleExpressionTimezone"));

        List<Instant> planned = between(Schedule.parse("rate(15 minutes)", "Europe/Berlin"));
        List<Instant> delivered = between(asDeployed);

        assertThat(planned).hasSize(3 * 24 * 4);
        assertThat(delivered).isEqualTo(planned);
        assertThat(deployed).containsEntry("ScheduleExpressionTimezone", "UTC");
    }

    @Test
    void rateEvery90Minutes_hasNoEquivalentCron_synthRefusesNamingTheJobAndWhy() {
        assertThatThrownBy(() -> deployedSchedule(job("ninety", "rate(90 minutes)")))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining("job ninety schedule rate: \"rate(90 minutes)\" cannot be deployed")
                .hasMessageContaining("refuses a StartDate in the past")
                .hasMessageContaining("rate(N minutes) with N dividing 60");
    }

    private static JobDefinition job(String id, String expression) {
        return JobDefinition.builder(id)
                .schedule(expression, "Europe/Berlin")
                .job(services -> context -> JobResult.empty())
                .build();
    }

    private static Map<String, Object> deployedSchedule(JobDefinition job) {
        StageStack stage = Synth.stage(Stages.named("dev"), JobCatalog.of(job));
        return Templates.jobSchedules(stage).get(job.id()).properties();
    }

    private static List<Instant> between(Schedule schedule) {
        OccurrenceCalculator calculator = OccurrenceCalculator.of(schedule);
        List<Instant> found = new ArrayList<>();
        Instant cursor = FROM.minusSeconds(1);
        while (true) {
            Instant next = calculator.next(cursor).orElseThrow();
            if (!next.isBefore(TO)) {
                return found;
            }
            found.add(next);
            cursor = next;
        }
    }
}
