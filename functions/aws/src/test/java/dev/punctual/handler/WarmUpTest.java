package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    private static final Map<String, String> ENV = Map.of("AWS_REGION", "us-east-1");

    /**
     * Tests that expect the warm-up to end wait this long, not the hook's 10 s: a loaded machine may
     * need more than that to load the SDK, and a test must not fail because the machine is slow. Only
     * a hang reaches it.
     */
    private static final Duration ENDS_WITHIN = Duration.ofMinutes(5);

    @Test
    void await_afterAWholeJar_returnsTrueOnceEveryOperationWasAnswered() {
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();

        boolean done = WarmUp.start(() -> Rehearsal.of(ENV, http)).await(ENDS_WITHIN);

        assertThat(done).isTrue();
        assertThat(http.answered()).containsExactlyElementsOf(Rehearsal.OPERATIONS);
    }

    @Test
    void start_whileTheRehearsalIsHeldUp_returnsBeforeAnyCall() {
        CountDownLatch release = new CountDownLatch(1);
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();

        WarmUp warmUp = WarmUp.start(() -> {
            awaitQuietly(release);
            return Rehearsal.of(ENV, http);
        });

        assertThat(http.answered())
                .as("nothing rehearsed before the supplier is released")
                .isEmpty();
        release.countDown();
        assertThat(warmUp.await(ENDS_WITHIN)).isTrue();
        assertThat(http.answered()).containsExactlyElementsOf(Rehearsal.OPERATIONS);
    }

    @Test
    void await_whenTheRehearsalCannotBeBuilt_stillGoesThroughTheRemainingSteps() {
        // No region: building the rehearsal's clients fails, as a bad environment would.
        WarmUp warmUp = WarmUp.start(() -> Rehearsal.of(Map.of(), new LocalAnswerHttpClient()));

        assertThat(warmUp.await(ENDS_WITHIN))
                .as("the warm-up ended its steps rather than dying")
                .isTrue();
    }

    @Test
    void await_whenTheRehearsalMeetsAnError_stillGoesThroughTheRemainingSteps() {
        WarmUp warmUp = WarmUp.start(() -> {
            throw new NoClassDefFoundError("software/amazon/awssdk/services/dynamodb/DynamoDbClient");
        });

        assertThat(warmUp.await(ENDS_WITHIN)).isTrue();
    }

    @Test
    void await_whenTheRehearsalHangs_givesUpAfterItsBound_soThePrimingHookGoesOn() {
        CountDownLatch never = new CountDownLatch(1);
        WarmUp warmUp = WarmUp.start(() -> {
            awaitQuietly(never);
            return Rehearsal.of(ENV, new LocalAnswerHttpClient());
        });

        assertThat(warmUp.await())
                .as("not done within %s", WarmUp.AWAIT_AT_MOST)
                .isFalse();
        never.countDown();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
