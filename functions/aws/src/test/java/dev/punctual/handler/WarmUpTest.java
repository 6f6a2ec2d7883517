package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    private static final Map<String, String> ENV = Map.of("AWS_REGION", "us-east-1");

    @Test
    void await_afterAWholeJar_returnsTrueOnceEveryOperationWasAnswered() {
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();

        boolean done = WarmUp.start(() -> Rehearsal.of(ENV, http)).await();

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
        assertThat(warmUp.await()).isTrue();
        assertThat(http.answered()).containsExactlyElementsOf(Rehearsal.OPERATIONS);
    }

    @Test
    void await_whenTheRehearsalCannotBeBuilt_stillGoesThroughTheRemainingSteps() {
        // No region: building the rehearsal's clients fails, as a bad environment would.
        WarmUp warmUp = WarmUp.start(() -> Rehearsal.of(Map.of(), new LocalAnswerHttpClient()));

        assertThat(warmUp.await())
                .as("the warm-up ended its steps rather than dying")
                .isTrue();
    }

    @Test
    void await_whenTheRehearsalMeetsAnError_stillGoesThroughTheRemainingSteps() {
        WarmUp warmUp = WarmUp.start(() -> {
            throw new NoClassDefFoundError("software/amazon/awssdk/services/dynamodb/DynamoDbClient");
        });

        assertThat(warmUp.await()).isTrue();
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
