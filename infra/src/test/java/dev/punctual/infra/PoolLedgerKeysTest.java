package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.runtime.MissedRunWatchdog;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which ledger items a pool's function may touch, worked out from the catalog alone. */
class PoolLedgerKeysTest {

    private static final FunctionPool BATCH = new FunctionPool("batch", 512, Duration.ofMinutes(5));

    @Test
    void aPool_writesItsJobsRunAndOwnLockItems_inCatalogOrder() {
        JobCatalog catalog = JobCatalog.of(job("report", null, FunctionPool.DEFAULT), job("export", null, BATCH));

        PoolLedgerKeys batch = PoolLedgerKeys.of(catalog, "batch");

        assertThat(batch.runItems()).containsExactly("run#export");
        assertThat(batch.jobItems()).containsExactly("lock#export");
        assertThat(batch.groupItems()).isEmpty();
        assertThat(batch.reads()).isEmpty();
        assertThat(batch.readsEveryItem()).isFalse();
    }

    @Test
    void aGroupSharedAcrossPools_isALeaseItemOfBoth_andEachReadsTheOthersJobItems() {
        JobCatalog catalog = JobCatalog.of(
                job("expire", "reservations", FunctionPool.DEFAULT), job("refund", "reservations", BATCH));

        PoolLedgerKeys batch = PoolLedgerKeys.of(catalog, "batch");
        PoolLedgerKeys defaultPool = PoolLedgerKeys.of(catalog, "default");

        assertThat(batch.groupItems()).containsExactly("lock#reservations");
        assertThat(defaultPool.groupItems()).containsExactly("lock#reservations");
        // CatalogOrder: refund's delivery waits while expire, due at the same instant, has no run item.
        assertThat(batch.reads()).containsExactly("lock#reservations", "run#expire", "lock#expire");
        assertThat(defaultPool.reads()).containsExactly("lock#reservations", "run#refund", "lock#refund");
        assertThat(batch.runItems()).containsExactly("run#refund");
        assertThat(batch.jobItems()).containsExactly("lock#refund");
    }

    @Test
    void aGroupOfCapacityThree_isThreeLeaseItems_whichEachPoolOfItsJobsWritesAndReads() {
        JobCatalog catalog = JobCatalog.of(
                        job("expire", "reservations", FunctionPool.DEFAULT), job("refund", "reservations", BATCH))
                .withGroupCapacity("reservations", 3);

        PoolLedgerKeys batch = PoolLedgerKeys.of(catalog, "batch");

        assertThat(batch.groupItems())
                .containsExactly("lock#reservations", "lock#reservations#2", "lock#reservations#3");
        assertThat(batch.reads())
                .containsExactly(
                        "lock#reservations", "lock#reservations#2", "lock#reservations#3", "run#expire", "lock#expire");
    }

    @Test
    void aGroupNamedAfterAnotherPoolsJob_isALeaseItem_neverThatJobsOwnItemToWrite() {
        JobCatalog catalog = JobCatalog.of(job("report", null, FunctionPool.DEFAULT), job("audit", "report", BATCH));

        PoolLedgerKeys batch = PoolLedgerKeys.of(catalog, "batch");

        assertThat(batch.jobItems()).containsExactly("lock#audit");
        assertThat(batch.groupItems()).containsExactly("lock#report");
        assertThat(batch.reads()).containsExactly("lock#report", "run#report");
    }

    @Test
    void aGroupNamedAfterAJobOfTheSamePool_isThatJobsOwnItem_notAGroupItem() {
        JobCatalog catalog = JobCatalog.of(job("report", null, BATCH), job("audit", "report", BATCH));

        PoolLedgerKeys batch = PoolLedgerKeys.of(catalog, "batch");

        assertThat(batch.jobItems()).containsExactly("lock#report", "lock#audit");
        assertThat(batch.groupItems()).isEmpty();
        assertThat(batch.reads()).isEmpty();
    }

    @Test
    void thePoolOfTheWatchdog_readsEveryItem_andListsNoReadsOfItsOwn() {
        JobCatalog catalog = JobCatalog.of(
                        job("report", null, BATCH), job("expire", "reservations", FunctionPool.DEFAULT))
                .plus(List.of(MissedRunWatchdog.definition()));

        PoolLedgerKeys defaultPool = PoolLedgerKeys.of(catalog, FunctionPool.DEFAULT.name());
        PoolLedgerKeys batch = PoolLedgerKeys.of(catalog, "batch");

        assertThat(defaultPool.readsEveryItem()).isTrue();
        assertThat(defaultPool.reads()).isEmpty();
        assertThat(defaultPool.runItems()).containsExactly("run#expire", "run#" + MissedRunWatchdog.ID);
        assertThat(batch.readsEveryItem()).isFalse();
    }

    @Test
    void aPoolHostingALongJob_writesItsExecutionAndChunkRecords_andAPerEntityOnesEntitiesToo() {
        JobCatalog catalog = JobCatalog.of(
                job("report", null, BATCH),
                LongJobs.inPool("month-end", BATCH),
                LongJobs.perEntity("tenant-close", BATCH),
                LongJobs.inPool("rebuild", FunctionPool.DEFAULT));

        PoolLedgerKeys batch = PoolLedgerKeys.of(catalog, "batch");

        assertThat(batch.longRunItems())
                .containsExactly(
                        "long#month-end",
                        "chunk#month-end#*",
                        "long#tenant-close",
                        "chunk#tenant-close#*",
                        "long#tenant-close:*",
                        "chunk#tenant-close:*");
        assertThat(PoolLedgerKeys.of(catalog, FunctionPool.DEFAULT.name()).longRunItems())
                .containsExactly("long#rebuild", "chunk#rebuild#*");
    }

    @Test
    void aPoolWithoutALongJob_hasNoLongRunRecords() {
        JobCatalog catalog =
                JobCatalog.of(job("report", null, BATCH), LongJobs.inPool("month-end", FunctionPool.DEFAULT));

        assertThat(PoolLedgerKeys.of(catalog, "batch").longRunItems()).isEmpty();
    }

    private static JobDefinition job(String id, String group, FunctionPool pool) {
        return JobDefinition.builder(id)
                .schedule("0 * * * *", "UTC")
                .lockGroup(group)
                .pool(pool)
                .job(services -> context -> JobResult.empty())
                .build();
    }
}
