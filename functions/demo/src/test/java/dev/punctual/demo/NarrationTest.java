package dev.punctual.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.catchup.MissedRange;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobEnvironment;
import dev.punctual.runtime.Catalogs;
import dev.punctual.stage.StageFlags;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's narration: computed from the catalog's zones and the scenario, in newcomer words. */
class NarrationTest {

    private static final JobCatalog CATALOG =
            Catalogs.load(JobEnvironment.definitionsOnly(StageFlags.defaultsFor("dev")));

    @Test
    void theWindow_saysClocksGoForwardInNewYork_beforeTheOutage_andInTimeOrder() {
        List<Narration.Line> lines = Narration.of(CATALOG);

        assertThat(lines).extracting(Narration.Line::at).isSorted();
        assertThat(lines)
                .extracting(Narration.Line::text)
                .anySatisfy(t -> assertThat(t)
                        .startsWith("clocks go forward in New York at 02:00 local: daily-report keeps its local time,"
                                + " 1h earlier in UTC"))
                .anySatisfy(t -> assertThat(t).startsWith("outage from 00:00Z to 03:00Z"))
                .anySatisfy(t -> assertThat(t)
                        .startsWith("a data tool loads synthetic members under punctual maintenance hold"));
        assertThat(lines.stream()
                        .filter(l -> l.text().contains("New York"))
                        .findFirst()
                        .orElseThrow()
                        .at())
                .isEqualTo(Instant.parse("2027-03-14T07:00:00Z"));
    }

    @Test
    void aClockChange_thatSkipsNoJobsLocalTime_claimsNoSkippedRun() {
        // daily-report runs at 09:00 New York; the change skips 02:00-03:00, so nothing fails to run.
        assertThat(Narration.of(CATALOG))
                .extracting(Narration.Line::text)
                .filteredOn(t -> t.startsWith("clocks go forward in New York"))
                .singleElement()
                .satisfies(t -> assertThat(t).doesNotContain("does not run"));
    }

    @Test
    void catchUp_countsWhatRan_andPrintsTheMissedRangeInTheJobsZone() {
        MissedRange missed =
                new MissedRange(Instant.parse("2027-03-14T00:00:00Z"), Instant.parse("2027-03-14T02:30:00Z"), 11);

        assertThat(Narration.catchUp(2, missed, ZoneId.of("Asia/Seoul")))
                .isEqualTo("catch-up: 2 run, 11 recorded as missed (2027-03-14T09:00:00+09:00 .."
                        + " 2027-03-14T11:30:00+09:00)");
    }

    @Test
    void jobSummaries_printWithTheirKeysInOrder_whateverOrderTheJobWroteThem() {
        assertThat(Narration.stableJson("{\"members\":5,\"date\":\"2027-03-13\"}"))
                .isEqualTo("{\"date\":\"2027-03-13\",\"members\":5}");
        assertThat(Narration.stableJson("not json")).isEqualTo("not json");
    }
}
