package dev.punctual.demo;

import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.util.List;
import java.util.Map;

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

    /** Runs per entity at 09:00 in each tenant's own zone; the demo's tenants are {@link #tenants}. */
    static final String TENANT_DIGEST = "tenant-digest";

    static JobCatalog addTo(JobCatalog catalog) {
        return catalog.plus(List.of(nightly(), tenantDigest()));
    }

    /**
     * A per-entity job (docs/entities.md): each tenant's schedule carries its own zone, so its 09:00 is
     * its own instant, and New York's moves an hour earlier in UTC across the window's DST change.
     */
    static JobDefinition tenantDigest() {
        return JobDefinition.builder(TENANT_DIGEST)
                .description("Demo only: each tenant's digest at 09:00 in the tenant's own zone")
                .schedule("0 9 * * *", "UTC")
                .perEntity(EntityJob.parameters("locale"))
                .catchUp(CatchUpPolicy.none())
                .job(s -> context -> JobResult.of(
                        "tenant",
                        context.entity().map(JobContext.Entity::id).orElse("-"),
                        "local_day",
                        context.localOccurrence().toLocalDate().toString()))
                .build();
    }

    /**
     * The demo's tenants, as their services would put them: New York changes to daylight time inside the
     * window (09:00 is 14:00Z, then 13:00Z), London not until 2027-03-28, Tokyo never.
     */
    static List<EntitySchedule> tenants() {
        JobDefinition job = tenantDigest();
        return List.of(
                EntitySchedule.of(job, "acme", null, "America/New_York", Map.of("locale", "en-US")),
                EntitySchedule.of(job, "globex", null, "Europe/London", Map.of("locale", "en-GB")),
                EntitySchedule.of(job, "initech", null, "Asia/Tokyo", Map.of("locale", "ja-JP")));
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
