package dev.punctual.entities;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.entities.ReconcileResult.Kind;
import dev.punctual.entity.EntitySchedule;
import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.scheduler.SchedulerClient;

/**
 * The reconcile's throughput against moto: a create-all run, an unchanged re-run (what resuming costs),
 * a 1% update run. {@code -Dbench.schedules=N} (default 200, the size kept in the normal suite) and
 * {@code -Dbench.rate=R} writes per second (default 10,000: pacing out of the way, moto is the limit).
 * Prints schedules per second per run, the JVM's peak heap (sum of the heap pools' peak usage) and its
 * peak RSS (VmHWM of /proc/self/status).
 */
class ReconcileBenchmarkTest {

    private static final JobDefinition JOB = JobDefinition.builder("bench")
            .schedule("0 9 * * *", "UTC")
            .perEntity(EntityJob.parameters("locale"))
            .job(services -> context -> JobResult.empty())
            .build();

    @Test
    void reconcilesTheEntities_thenReRunsUnchanged_thenUpdatesOnePercent() throws Exception {
        int n = Integer.getInteger("bench.schedules", 200);
        double rate = Double.parseDouble(System.getProperty("bench.rate", "10000"));
        int writers = Integer.getInteger("bench.writers", 1);
        try (SchedulerClient client = SchedulerEmulator.client()) {
            EntityTargets targets = SchedulerEmulator.newGroup(client, "bench");
            EntityReconcile reconcile = new EntityReconcile(
                    client, JobCatalog.of(JOB), targets, LedgerEmulator.tombstones(), Pacer.perSecond(rate), writers);
            System.out.printf("[bench] writers=%d rate=%.0f/s%n", writers, rate);
            List<EntitySchedule> all = IntStream.range(0, n)
                    .mapToObj(i -> EntitySchedule.of(JOB, "tenant-" + i, null, "Europe/Paris", Map.of("locale", "fr")))
                    .toList();

            ReconcileResult created =
                    timed("create-all", n, () -> reconcile.reconcile("bench", all, false, false, c -> {}));
            assertThat(created.counts()).containsEntry(Kind.CREATE, n);

            ReconcileResult unchanged =
                    timed("unchanged re-run", n, () -> reconcile.reconcile("bench", all, false, false, c -> {}));
            assertThat(unchanged.counts()).containsEntry(Kind.UNCHANGED, n);

            List<EntitySchedule> onePercent = new ArrayList<>(all);
            int updates = Math.max(1, n / 100);
            for (int i = 0; i < updates; i++) {
                onePercent.set(
                        i * (n / updates),
                        EntitySchedule.of(
                                JOB, all.get(i * (n / updates)).entity(), null, "Asia/Tokyo", Map.of("locale", "ja")));
            }
            ReconcileResult updated =
                    timed("1% update", n, () -> reconcile.reconcile("bench", onePercent, false, false, c -> {}));
            assertThat(updated.counts()).containsEntry(Kind.UPDATE, updates).containsEntry(Kind.UNCHANGED, n - updates);
        }
        long peakHeap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP)
                .mapToLong(p -> p.getPeakUsage().getUsed())
                .sum();
        String hwm = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("VmHWM"))
                .findFirst()
                .orElse("VmHWM: unknown");
        System.out.printf(
                "[bench] schedules=%d peak heap=%d MiB, JVM peak RSS %s%n",
                n, peakHeap >> 20, hwm.replaceAll("\\s+", " "));
    }

    private static ReconcileResult timed(String run, int n, java.util.function.Supplier<ReconcileResult> body) {
        long start = System.nanoTime();
        ReconcileResult result = body.get();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("[bench] %s: %d schedules in %.1f s = %.0f schedules/s%n", run, n, seconds, n / seconds);
        return result;
    }
}
