package dev.punctual.entities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class WritersTest {

    private static final List<Integer> HUNDRED = IntStream.range(0, 100).boxed().toList();

    @Test
    void resultsComeBackInTheItemsOrder_whateverOrderTheWritersFinishIn() {
        List<Integer> done = Collections.synchronizedList(new ArrayList<>());

        List<Integer> results = new Writers(8).each(HUNDRED, i -> i * 2, done::add);

        assertThat(results).isEqualTo(HUNDRED.stream().map(i -> i * 2).toList());
        assertThat(done).containsExactlyInAnyOrderElementsOf(results);
    }

    @Test
    void theGivenNumberOfWritersWorkAtOnce() {
        // Each of the first four items waits until four are in flight: with fewer writers it would hang
        // (the barrier's timeout turns that into a failure instead).
        CyclicBarrier fourInFlight = new CyclicBarrier(4);
        Set<String> threads = ConcurrentHashMap.newKeySet();

        new Writers(4)
                .each(
                        HUNDRED.subList(0, 4),
                        i -> {
                            threads.add(Thread.currentThread().getName());
                            try {
                                fourInFlight.await(5, TimeUnit.MINUTES);
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                            return i;
                        },
                        r -> {});

        assertThat(threads).hasSize(4);
    }

    @Test
    void doneIsToldOneResultAtATime() {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();

        new Writers(8).each(HUNDRED, i -> i, r -> {
            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
            Thread.yield();
            inside.decrementAndGet();
        });

        assertThat(most.get()).isEqualTo(1);
    }

    @Test
    void theFirstFailureStopsHandingOutItems_andIsThrownOnceTheWritersHaveFinished() {
        AtomicInteger started = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();

        assertThatThrownBy(() -> new Writers(1)
                        .each(
                                HUNDRED,
                                i -> {
                                    started.incrementAndGet();
                                    if (i == 10) {
                                        throw new IllegalStateException("put of item 10 failed");
                                    }
                                    finished.incrementAndGet();
                                    return i;
                                },
                                r -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("put of item 10 failed");

        assertThat(started.get()).isEqualTo(11);
        assertThat(finished.get()).isEqualTo(10);
    }

    @Test
    void withSeveralWritersNoItemStartsAfterTheFailureIsSeen() {
        AtomicInteger started = new AtomicInteger();

        assertThatThrownBy(() -> new Writers(4)
                        .each(
                                HUNDRED,
                                i -> {
                                    started.incrementAndGet();
                                    throw new IllegalStateException("refused " + i);
                                },
                                r -> {}))
                .isInstanceOf(IllegalStateException.class);

        // Each writer may have taken one item before it saw the failure: never the whole list.
        assertThat(started.get()).isBetween(1, 4);
    }

    @Test
    void aWriterCountOutsideOneToSixtyFourIsRefused_namingTheField() {
        assertThatThrownBy(() -> new Writers(0)).hasMessage("writers: 0; accepted: 1 to 64");
        assertThatThrownBy(() -> new Writers(65)).hasMessage("writers: 65; accepted: 1 to 64");
    }
}
