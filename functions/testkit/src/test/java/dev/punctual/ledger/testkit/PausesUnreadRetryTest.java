package dev.punctual.ledger.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.spi.LedgerEngine;
import dev.punctual.ledger.spi.LedgerStore;
import dev.punctual.ledger.spi.PauseRead;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link RunLedger#pauses}: the ids a read left unread (DynamoDB's UnprocessedKeys, which moto never
 * returns) are asked again after waits that double, and a read that never finishes fails instead of
 * listing a paused job as running.
 */
class PausesUnreadRetryTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T06:00:00Z"));
    private final InMemoryLedgerStore store = new InMemoryLedgerStore();
    private final List<Duration> waits = new ArrayList<>();
    private final List<List<String>> asked = new ArrayList<>();

    /** The in-memory store, whose reads leave their last id unread the first {@code stingy} times. */
    private LedgerStore leavingTheLastUnread(int stingy) {
        return (LedgerStore) Proxy.newProxyInstance(
                LedgerStore.class.getClassLoader(), new Class<?>[] {LedgerStore.class}, (proxy, method, args) -> {
                    try {
                        Object answer = method.invoke(store, args);
                        if (!method.getName().equals("readPauses")) {
                            return answer;
                        }
                        @SuppressWarnings("unchecked")
                        List<String> ids = (List<String>) args[0];
                        asked.add(ids);
                        if (asked.size() > stingy) {
                            return answer;
                        }
                        String unread = ids.get(ids.size() - 1);
                        PauseRead all = (PauseRead) answer;
                        var marks = new java.util.HashMap<>(all.marks());
                        marks.remove(unread);
                        return new PauseRead(marks, List.of(unread));
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private RunLedger ledger(LedgerStore store) {
        return new LedgerEngine(store, clock, new SequentialTokens("r"), Retention.DEFAULT, waits::add);
    }

    @Test
    void anUnreadId_isAskedAgainAfterAWaitThatDoubles_andItsMarkIsRead() {
        ledger(store).pause("b", "ops", "outage", Optional.empty(), true);

        assertThat(ledger(leavingTheLastUnread(2)).pauses(List.of("a", "b"))).containsOnlyKeys("b");
        assertThat(asked).containsExactly(List.of("a", "b"), List.of("b"), List.of("b"));
        assertThat(waits).containsExactly(Duration.ofMillis(50), Duration.ofMillis(100));
    }

    @Test
    void idsNeverRead_failTheListing_afterEightRequests() {
        assertThatThrownBy(() -> ledger(leavingTheLastUnread(Integer.MAX_VALUE)).pauses(List.of("a", "b")))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("1 lock items still unread after 8 requests");
        assertThat(asked).hasSize(8);
        assertThat(waits).hasSize(7).last().isEqualTo(Duration.ofMillis(3200));
    }
}
