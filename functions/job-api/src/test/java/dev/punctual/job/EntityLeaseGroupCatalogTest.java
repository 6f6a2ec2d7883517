package dev.punctual.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import org.junit.jupiter.api.Test;

/**
 * A per-entity job whose entities take their own leases holds its group against maintenance only, so no
 * other job may name that group as its lock group and expect to be kept apart from the entities.
 */
class EntityLeaseGroupCatalogTest {

    private static JobDefinition.Builder job(String id) {
        return JobDefinition.builder(id).schedule("0 9 * * *", "UTC").job(s -> ctx -> JobResult.empty());
    }

    @Test
    void anotherJobInTheGroupOfAPerEntityJobWithItsOwnLeases_isRefused_namingBothJobsAndTheWaysOut() {
        JobDefinition tenants =
                job("tenant-report").perEntity(EntityJob.parameters("locale")).build();
        JobDefinition cleanup = job("cleanup").lockGroup("tenant-report").build();

        assertThatThrownBy(() -> JobCatalog.of(tenants, cleanup))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining(
                        "job cleanup: lockGroup 'tenant-report' is the group of per-entity job" + " tenant-report")
                .hasMessageContaining("expected another lock group, or")
                .hasMessageContaining("sharingOneLease()");
        assertThatThrownBy(() -> JobCatalog.of(cleanup, tenants))
                .as("refused whichever job is declared first")
                .hasMessageContaining("job cleanup: lockGroup 'tenant-report'");
    }

    @Test
    void entitiesSharingOneLease_mayShareTheirGroupWithAnotherJob() {
        JobDefinition tenants = job("tenant-report")
                .perEntity(EntityJob.parameters("locale").sharingOneLease())
                .build();
        JobDefinition cleanup = job("cleanup").lockGroup("tenant-report").build();

        assertThat(JobCatalog.of(tenants, cleanup).isShared("tenant-report")).isTrue();
    }

    @Test
    void aPerEntityJobInANamedGroup_mayShareItWithAnotherJob_sinceItsEntitiesThenShareTheGroupsLease() {
        JobDefinition tenants = job("tenant-report")
                .lockGroup("reports")
                .perEntity(EntityJob.parameters("locale"))
                .build();
        JobDefinition weekly = job("weekly-report").lockGroup("reports").build();

        assertThat(JobCatalog.of(tenants, weekly).isShared("reports")).isTrue();
    }
}
