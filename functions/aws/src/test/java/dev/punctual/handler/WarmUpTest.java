package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    private static final Map<String, String> ENV = Map.of("AWS_REGION", "us-east-1");

    @Test
    void await_returnsOnceTheRehearsalHasAnsweredEveryCall() {
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();

        WarmUp.start(() -> Rehearsal.of(ENV, http)).await();

        assertThat(http.answered()).isEqualTo(1 + Rehearsal.JOB_CALLS.size() + 1 + 1);
    }

    @Test
    void start_returnsBeforeTheRehearsalEnds() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        LocalAnswerHttpClient http = new LocalAnswerHttpClient();

        WarmUp warmUp = WarmUp.start(() -> {
            awaitQuietly(release);
            return Rehearsal.of(ENV, http);
        });

        assertThat(http.answered())
                .as("nothing rehearsed before the supplier is released")
                .isZero();
        release.countDown();
        warmUp.await();
        assertThat(http.answered()).isPositive();
    }

    @Test
    void aRehearsalThatCannotBeBuilt_endsTheWarmUpInsteadOfHangingThePrimingHook() {
        WarmUp warmUp = WarmUp.start(() -> Rehearsal.of(Map.of(), new LocalAnswerHttpClient())); // no region

        CompletableFuture<Void> awaited = CompletableFuture.runAsync(warmUp::await);

        assertThat(awaited).succeedsWithin(Duration.ofSeconds(30));
    }

    @Test
    void anErrorInTheRehearsal_endsTheWarmUp() {
        WarmUp warmUp = WarmUp.start(() -> {
            throw new NoClassDefFoundError("software/amazon/awssdk/services/dynamodb/DynamoDbClient");
        });

        CompletableFuture<Void> awaited = CompletableFuture.runAsync(warmUp::await);

        assertThat(awaited).succeedsWithin(Duration.ofSeconds(30));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
