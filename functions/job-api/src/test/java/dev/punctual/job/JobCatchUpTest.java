package dev.punctual.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.RefusedInputException;
import dev.punctual.catchup.CatchUpMode;
import dev.punctual.catchup.CatchUpPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What a job catches up when it names no policy, and the policies a catalog refuses. */
class JobCatchUpTest {

    private static JobDefinition.Builder job(String expression, String zone) {
        return JobDefinition.builder("digest").schedule(expression, zone).job(services -> context -> JobResult.empty());
    }

    @Test
    void weeklyJob_withTheDocsOldShapeOfThreeWithinTwoDays_isRefused_namingTheJobThePeriodAndWhatWouldDo() {
        JobDefinition.Builder weekly = job("cron(30 8 ? * MON *)", "Europe/Paris")
                .catchUp(new CatchUpPolicy(3, Duration.ofDays(2), CatchUpMode.OLDEST_FIRST));

        assertThatThrownBy(weekly::build)
                .isInstanceOf(CatalogDefinitionException.class)
                .isInstanceOf(RefusedInputException.class)
                .hasMessageContaining("job digest: catchUp 'oldest first, up to 3 within 2d' is not accepted")
                // 169 h: the sample of 64 weeks spans the autumn change, when Monday 08:30 comes an hour later.
                .hasMessageContaining("one period of the schedule (PT169H between occurrences)")
                .hasMessageContaining("CatchUpPolicy.oldestFirst(3, Duration.ofHours(508))")
                .hasMessageContaining("CatchUpPolicy.none()");
    }

    @Test
    void weeklyJob_thatCatchesUpNothing_orReachesBackAWeek_isAccepted() {
        assertThat(job("cron(30 8 ? * MON *)", "Europe/Paris")
                        .catchUp(CatchUpPolicy.none())
                        .build()
                        .catchUp())
                .isEqualTo(CatchUpPolicy.none());
        assertThat(job("cron(30 8 ? * MON *)", "Europe/Paris")
                        .catchUp(CatchUpPolicy.oldestFirst(3, Duration.ofDays(22)))
                        .build()
                        .catchUp()
                        .maxAge())
                .isEqualTo(Duration.ofDays(22));
    }

    @Test
    void monthlyJob_withThirtyDays_isRefused_becauseAMonthOfThirtyOneDaysPutsItsMissedRunOutOfReach() {
        JobDefinition.Builder monthly =
                job("cron(0 6 1 * ? *)", "UTC").catchUp(CatchUpPolicy.latestOnly(Duration.ofDays(30)));

        assertThatThrownBy(monthly::build).hasMessageContaining("PT744H between occurrences");
    }

    @Test
    void dailyJob_withoutAPolicy_catchesUpThreeDays_oldestFirst() {
        CatchUpPolicy policy = job("0 9 * * *", "America/New_York").build().catchUp();

        assertThat(policy).isEqualTo(CatchUpPolicy.oldestFirst(3, Duration.ofDays(3)));
    }

    @Test
    void weeklyJob_withoutAPolicy_catchesUpThreeWeeks_ofItsLongestWeek() {
        assertThat(job("cron(30 8 ? * MON *)", "UTC").build().catchUp())
                .isEqualTo(CatchUpPolicy.oldestFirst(3, Duration.ofDays(21)));
        // In Paris the week across the autumn change is 169 h long.
        assertThat(job("cron(30 8 ? * MON *)", "Europe/Paris").build().catchUp())
                .isEqualTo(CatchUpPolicy.oldestFirst(3, Duration.ofHours(3 * 169)));
    }

    @Test
    void frequentJob_withoutAPolicy_reachesBackSixHours_notThreeOfItsShortPeriods() {
        assertThat(job("*/15 * * * *", "Asia/Seoul").build().catchUp())
                .isEqualTo(CatchUpPolicy.oldestFirst(3, Duration.ofHours(6)));
    }

    @Test
    void oneTimeJob_withoutAPolicy_hasNoPeriod_andGetsSixHours() {
        assertThat(job("at(2027-01-15T10:00:00)", "Europe/Berlin").build().catchUp())
                .isEqualTo(CatchUpPolicy.oldestFirst(3, Duration.ofHours(6)));
    }
}
