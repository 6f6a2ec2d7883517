package dev.punctual.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.ledger.LockSlots;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A lock group may admit up to N runs of its jobs at once (decision 0051). Undeclared it admits one and is
 * one lease item, exactly as before; declared, its N slots are what maintenance takes.
 */
class GroupCapacityCatalogTest {

    private static JobDefinition.Builder job(String id) {
        return JobDefinition.builder(id).schedule("0 9 * * *", "UTC").job(s -> ctx -> JobResult.empty());
    }

    private static JobCatalog reports() {
        return JobCatalog.of(
                job("morning-report").lockGroup("reports").build(),
                job("weekly-report").lockGroup("reports").build(),
                job("cleanup").build());
    }

    @Test
    void anUndeclaredGroup_hasCapacityOne_andIsItsOneItem() {
        JobCatalog catalog = reports();

        assertThat(catalog.groupCapacity("reports")).isEqualTo(1);
        assertThat(catalog.lockItems()).containsExactly("cleanup", "reports");
        assertThat(catalog.lockItems()).isEqualTo(catalog.lockGroups());
    }

    @Test
    void aGroupOfCapacityThree_hasThreeSlots_whichMaintenanceTakesInSortedOrder() {
        JobCatalog catalog = reports().withGroupCapacity("reports", 3);

        assertThat(catalog.groupCapacity("reports")).isEqualTo(3);
        assertThat(catalog.groupCapacity("cleanup")).isEqualTo(1);
        assertThat(catalog.lockGroups()).containsExactly("cleanup", "reports");
        assertThat(catalog.lockItems()).containsExactly("cleanup", "reports", "reports#2", "reports#3");
    }

    @Test
    void theCapacity_survivesTheCatalogsOtherDeclarations() {
        JobCatalog catalog = reports()
                .withGroupCapacity("reports", 2)
                .plus(List.of(job("built-in").build()))
                .withBlackout(
                        "reports",
                        dev.punctual.time.Blackout.daily(
                                java.time.LocalTime.of(1, 0), java.time.LocalTime.of(2, 0), "UTC", "backups"));

        assertThat(catalog.groupCapacity("reports")).isEqualTo(2);
    }

    @Test
    void aCapacityOutsideOneToTheBound_isRefused_namingTheGroupTheFieldAndTheBounds() {
        for (int bad : new int[] {0, -1, LockSlots.MAX_CAPACITY + 1}) {
            assertThatThrownBy(() -> reports().withGroupCapacity("reports", bad))
                    .isInstanceOf(PunctualException.class)
                    .hasMessageContaining("lock group 'reports': capacity " + bad + " is not accepted")
                    .hasMessageContaining("expected 1 to " + LockSlots.MAX_CAPACITY);
        }
    }

    @Test
    void aCapacityForAGroupNoJobHas_isRefused_namingTheGroupsThereAre() {
        assertThatThrownBy(() -> reports().withGroupCapacity("nightly", 2))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("lock group 'nightly'")
                .hasMessageContaining("no job has that group; expected one of [cleanup, reports]");
    }

    @Test
    void aCapacityAboveOne_forAJobsOwnGroup_isRefused() {
        assertThatThrownBy(() -> reports().withGroupCapacity("cleanup", 2))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining(
                        "lock group 'cleanup': capacity 2 is not accepted for a group named after job" + " cleanup");
    }

    @Test
    void aCapacityAboveOne_forAGroupWithAPerEntityOrALongJob_isRefused_namingTheMember() {
        JobCatalog withEntities = JobCatalog.of(
                job("weekly-report").lockGroup("reports").build(),
                job("tenant-report")
                        .lockGroup("reports")
                        .perEntity(EntityJob.parameters("locale"))
                        .build());

        assertThatThrownBy(() -> withEntities.withGroupCapacity("reports", 2))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("member tenant-report is a per-entity job");
        assertThat(withEntities.withGroupCapacity("reports", 1).groupCapacity("reports"))
                .isEqualTo(1);
    }
}
