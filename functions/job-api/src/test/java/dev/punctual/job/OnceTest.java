package dev.punctual.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OnceTest {

    @Test
    void buildsNothingUntilAsked_thenOnce() {
        AtomicInteger built = new AtomicInteger();
        Once<String> client = Once.of(() -> "client-" + built.incrementAndGet());

        assertThat(built).hasValue(0);
        assertThat(client.get()).isEqualTo("client-1");
        assertThat(client.get()).isEqualTo("client-1");
        assertThat(built).hasValue(1);
    }

    @Test
    void aMakerThatGivesNull_isAFault_notANullClientLater() {
        assertThatThrownBy(() -> Once.of(() -> null).get()).isInstanceOf(NullPointerException.class);
    }
}
