package dev.punctual.demo;

import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.util.List;

/**
 * Jobs only the demo declares, added to the team's catalog for its run. The example catalog has no job
 * whose local time the window's daylight-saving change skips (New York springs forward at 02:00 on
 * 2027-03-14; Berlin only on 2027-03-28), and adding one there would deploy it to every stage, change
 * the synthesised stack and what {@code punctual jobs} lists, to show a demo a single line.
 */
final class DemoJobs {

    /** Runs at 02:30 New York time, which does not exist on 2027-03-14: the scheduler skips that night. */
    static final String NIGHTLY = "nightly-snapshot";

    private DemoJobs() {}

    static JobCatalog addTo(JobCatalog catalog) {
        return catalog.plus(List.of(nightly()));
    }

    static JobDefinition nightly() {
        return JobDefinition.builder(NIGHTLY)
                .description("Demo only: a nightly job at 02:30 New York time, inside the spring-forward gap")
                .schedule("30 2 * * *", "America/New_York")
                .catchUp(CatchUpPolicy.none())
                .job(s -> context -> JobResult.of(
                        "night", context.localOccurrence().toLocalDate().toString()))
                .build();
    }
}
