package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.job.JobCatalog;
import dev.punctual.stage.StageConfigException;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

class WarmUpTest {

    @Test
    void events_afterTheWarmUp_isTheClientItsThreadBuilt() {
        try (EventBridgeClient built = EventBridgeClient.builder()
                .region(Region.US_EAST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .build()) {
            WarmUp warmUp = WarmUp.start(JobCatalog::of, () -> built);
            warmUp.await();

            assertThat(warmUp.events()).isSameAs(built);
        }
    }

    @Test
    void events_whenBuildingTheClientFailed_throwsThatFaultToTheCaller() {
        StageConfigException fault = new StageConfigException("AWS_REGION", "", "the region, e.g. eu-central-1");
        WarmUp warmUp = WarmUp.start(JobCatalog::of, () -> {
            throw fault;
        });

        assertThatThrownBy(warmUp::events).isSameAs(fault);
    }

    @Test
    void events_calledBeforeTheThreadBuiltTheClient_waitsForIt() {
        CountDownLatch release = new CountDownLatch(1);
        try (EventBridgeClient built = EventBridgeClient.builder()
                .region(Region.US_EAST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .build()) {
            WarmUp warmUp = WarmUp.start(JobCatalog::of, () -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return built;
            });
            CompletableFuture<EventBridgeClient> caller = CompletableFuture.supplyAsync(warmUp::events);

            assertThat(caller).as("no client before the thread built it").isNotDone();
            release.countDown();
            assertThat(caller.join()).isSameAs(built);
        }
    }

    @Test
    void catalog_whenLoadingItFailed_throwsThatFaultInTheInitPhase() {
        StageConfigException fault = new StageConfigException("PUNCTUAL_STAGE", "", "a stage name");
        WarmUp warmUp = WarmUp.start(
                () -> {
                    throw fault;
                },
                () -> null);

        assertThatThrownBy(warmUp::catalog).isSameAs(fault);
    }

    @Test
    void anErrorLoadingTheCatalog_reachesTheHandler_andTheEventClientIsStillBuilt() {
        StackOverflowError fault = new StackOverflowError("catalog provider recursed");
        try (EventBridgeClient built = events()) {
            WarmUp warmUp = WarmUp.start(
                    () -> {
                        throw fault;
                    },
                    () -> built);

            assertThatThrownBy(warmUp::catalog).isSameAs(fault);
            assertThat(warmUp.events()).isSameAs(built);
        }
    }

    private static EventBridgeClient events() {
        return EventBridgeClient.builder()
                .region(Region.US_EAST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .endpointOverride(URI.create("http://127.0.0.1:9"))
                .build();
    }
}
