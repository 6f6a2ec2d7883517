package dev.punctual.entities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stage facts a put needs are checked once, when they are given, each refusal naming its field. */
class EntityTargetsTest {

    private static final String FUNCTION = "arn:aws:lambda:eu-west-1:123456789012:function:punctual-dev-default:live";
    private static final String ROLE = "arn:aws:iam::123456789012:role/punctual-dev-scheduler";

    @Test
    void theBuilder_defaultsToTheStagesSchedulerRetries_andNoDeadLetterQueue() {
        EntityTargets targets = EntityTargets.builder("punctual-dev-entities")
                .pool("default", FUNCTION, ROLE)
                .build();

        assertThat(targets.retryAttempts()).isEqualTo(3);
        assertThat(targets.maximumEventAgeSeconds()).isEqualTo(3600);
        assertThat(targets.deadLetterQueue()).isEmpty();
        assertThat(targets.of("reminder", "default")).isEqualTo(new EntityTargets.PoolTarget(FUNCTION, ROLE));
    }

    @Test
    void aGroupOutsideTheApisAlphabet_isRefusedNamingGroup() {
        assertRefused(
                () -> EntityTargets.builder("punctual dev")
                        .pool("default", FUNCTION, ROLE)
                        .build(),
                "group");
        assertRefused(
                () -> EntityTargets.builder(null)
                        .pool("default", FUNCTION, ROLE)
                        .build(),
                "group");
    }

    @Test
    void noPools_isRefusedNamingPools() {
        assertRefused(() -> EntityTargets.builder("punctual-dev-entities").build(), "pools");
    }

    @Test
    void aRoleGivenAsTheFunction_isRefusedNamingThePoolsFunctionArn() {
        assertRefused(
                () -> EntityTargets.builder("punctual-dev-entities")
                        .pool("default", ROLE, FUNCTION)
                        .build(),
                "pools.default.functionArn");
    }

    @Test
    void aBlankRole_isRefusedNamingThePoolsRoleArn() {
        assertRefused(
                () -> EntityTargets.builder("punctual-dev-entities")
                        .pool("default", FUNCTION, " ")
                        .build(),
                "pools.default.roleArn");
    }

    @Test
    void aDeadLetterQueueThatIsNotAnSqsArn_isRefused() {
        assertRefused(
                () -> EntityTargets.builder("punctual-dev-entities")
                        .pool("default", FUNCTION, ROLE)
                        .deadLetterQueue("https://sqs.eu-west-1.amazonaws.com/123456789012/dlq")
                        .build(),
                "deadLetterQueueArn");
    }

    @Test
    void retriesOutsideTheSchedulersBounds_areRefused() {
        assertRefused(
                () -> EntityTargets.builder("punctual-dev-entities")
                        .pool("default", FUNCTION, ROLE)
                        .retries(186, Duration.ofHours(1))
                        .build(),
                "retryAttempts");
        assertRefused(
                () -> EntityTargets.builder("punctual-dev-entities")
                        .pool("default", FUNCTION, ROLE)
                        .retries(3, Duration.ofSeconds(59))
                        .build(),
                "maximumEventAgeSeconds");
        assertRefused(
                () -> new EntityTargets(
                        "punctual-dev-entities",
                        Map.of("default", new EntityTargets.PoolTarget(FUNCTION, ROLE)),
                        null,
                        3,
                        86_401),
                "maximumEventAgeSeconds");
    }

    @Test
    void aPoolWithoutTarget_isRefusedNamingThePool_andThePoolsThatHaveOne() {
        EntityTargets targets = EntityTargets.builder("punctual-dev-entities")
                .pool("default", FUNCTION, ROLE)
                .pool("fast", FUNCTION.replace("default", "fast"), ROLE)
                .build();

        assertThatThrownBy(() -> targets.of("export", "bulk"))
                .isInstanceOfSatisfying(
                        EntityTargetsException.class, e -> assertThat(e.field()).isEqualTo("pools.bulk"))
                .hasMessage("pools.bulk: job 'export' runs in pool 'bulk', which has no target here; accepted: a job"
                        + " of a pool with a target (default, fast), or targets that name pool 'bulk'");
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable build, String field) {
        assertThatThrownBy(build)
                .isInstanceOfSatisfying(
                        EntityTargetsException.class, e -> assertThat(e.field()).isEqualTo(field))
                .hasMessageStartingWith(field + ": ")
                .hasMessageContaining("accepted: ");
    }
}
