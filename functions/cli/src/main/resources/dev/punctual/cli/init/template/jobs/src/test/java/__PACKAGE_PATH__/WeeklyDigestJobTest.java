package __PACKAGE__;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobEnvironment;
import dev.punctual.runtime.JobTestRuntime;
import dev.punctual.stage.StageFlags;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The sample job through Punctual's real runtime: in-memory ledger, dev stage flags, a moved clock. */
class WeeklyDigestJobTest {

    @Test
    void deliveredTwiceForOneMonday_runsOnce() {
        JobTestRuntime runtime =
                JobTestRuntime.dev(Instant.parse("2027-03-01T00:00:00Z"), WeeklyDigestJob.definition());
        Instant monday = Instant.parse("2027-03-01T07:30:00Z"); // 08:30 in Paris (UTC+1)

        assertThat(runtime.deliver(WeeklyDigestJob.ID, monday)).isEqualTo("PASS OK");
        assertThat(runtime.deliver(WeeklyDigestJob.ID, monday)).isEqualTo("SKIP ALREADY_DONE");
    }

    @Test
    void theCatalog_holdsTheJob() {
        assertThat(new TeamCatalog().catalog(JobEnvironment.definitionsOnly(StageFlags.defaultsFor("dev"))).find(WeeklyDigestJob.ID)).isPresent();
    }
}
