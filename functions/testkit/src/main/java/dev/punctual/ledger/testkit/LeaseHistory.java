package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.ledger.Lease;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * Every lease a test held, as an interval on one global order: {@code start} is taken after the claim
 * returned (after the write took effect) and {@code end} before the completion is sent (before the
 * release takes effect). If two owners of a group ever held it at once, their intervals overlap.
 */
final class LeaseHistory {

    record Interval(String group, long fence, String owner, long start, long end) {}

    private final AtomicLong order = new AtomicLong();
    private final ConcurrentLinkedQueue<Interval> intervals = new ConcurrentLinkedQueue<>();

    long tick() {
        return order.incrementAndGet();
    }

    void held(Lease lease, long start, long end) {
        intervals.add(new Interval(lease.group(), lease.fence(), lease.ownerToken(), start, end));
    }

    int size() {
        return intervals.size();
    }

    /**
     * Per group: no overlap, and the fences of the jobs' leases unique and increasing in the order they
     * were held (a maintenance hold has none, {@link Lease#NO_FENCE}: decision 0037).
     */
    void assertNoOverlap() {
        Map<String, List<Interval>> byGroup = intervals.stream().collect(Collectors.groupingBy(Interval::group));
        byGroup.forEach((group, held) -> {
            List<Interval> inOrder = held.stream()
                    .sorted(Comparator.comparingLong(Interval::start))
                    .toList();
            List<Interval> fenced =
                    inOrder.stream().filter(i -> i.fence() != Lease.NO_FENCE).toList();
            for (int i = 1; i < fenced.size(); i++) {
                Interval previous = fenced.get(i - 1);
                Interval next = fenced.get(i);
                assertThat(next.fence())
                        .as("fence order in %s: %s then %s", group, previous, next)
                        .isGreaterThan(previous.fence());
            }
            for (int i = 1; i < inOrder.size(); i++) {
                Interval previous = inOrder.get(i - 1);
                Interval next = inOrder.get(i);
                assertThat(previous.end())
                        .as("overlap in %s: %s and %s", group, previous, next)
                        .isLessThan(next.start());
            }
        });
    }
}
