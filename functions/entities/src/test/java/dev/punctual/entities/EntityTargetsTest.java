package dev.punctual.entities;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.job.EntityJob;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.stage.StageOutputs;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The stage facts a put needs are checked once, when they are given, each refusal naming its field. */
class EntityTargetsTest {

    private static final String FUNCTION = "arn:aws:lambda:eu-west-1:123456789012:function:punctual-dev-default:live";
    private static final String ROLE = "arn:aws:iam::123456789012:role/punctual-dev-scheduler";
    private static final String BULK_FUNCTION = "arn:aws:lambda:eu-west-1:123456789012:function:punctual-dev-bulk:live";
    private static final String BULK_ROLE = "arn:aws:iam::123456789012:role/punctual-dev-entities-bulk";
    private static final String DEAD_LETTERS = "arn:aws:sqs:eu-west-1:123456789012:punctual-dev-scheduler-dlq";

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

    @Test
    void theStagesOutputs_giveTheGroupEachPoolsAliasAndEntityRole_andTheDeadLetterQueue_withTheDefaultRetries() {
        EntityTargets targets = EntityTargets.fromStageOutputs(stageOutputs(), List.of("default", "bulk"));

        assertThat(targets)
                .isEqualTo(EntityTargets.builder("punctual-dev-entities")
                        .pool("default", FUNCTION, ROLE)
                        .pool("bulk", BULK_FUNCTION, BULK_ROLE)
                        .deadLetterQueue(DEAD_LETTERS)
                        .build());
        assertThat(targets.retryAttempts()).isEqualTo(EntityTargets.DEFAULT_RETRY_ATTEMPTS);
        assertThat(targets.maximumEventAgeSeconds()).isEqualTo(EntityTargets.DEFAULT_MAXIMUM_EVENT_AGE_SECONDS);
    }

    @Test
    void aMissingOutput_isRefusedNamingItsKey() {
        for (String key : List.of(
                StageOutputs.ENTITY_SCHEDULE_GROUP,
                StageOutputs.poolAlias("bulk"),
                StageOutputs.entitySchedulerRole("bulk"),
                StageOutputs.SCHEDULER_DEAD_LETTERS)) {
            Map<String, String> outputs = new HashMap<>(stageOutputs());
            outputs.remove(key);

            assertThatThrownBy(() -> EntityTargets.fromStageOutputs(outputs, List.of("default", "bulk")))
                    .as(key)
                    .isInstanceOfSatisfying(
                            EntityTargetsException.class,
                            e -> assertThat(e.field()).isEqualTo("outputs." + key))
                    .hasMessageStartingWith("outputs." + key + ": missing from the stage's outputs; accepted: ");
        }
    }

    @Test
    void anOutputOfTheWrongKind_isRefusedAsTheFieldItFills() {
        Map<String, String> outputs = new HashMap<>(stageOutputs());
        outputs.put(StageOutputs.entitySchedulerRole("bulk"), BULK_FUNCTION);

        assertRefused(() -> EntityTargets.fromStageOutputs(outputs, List.of("bulk")), "pools.bulk.roleArn");
    }

    @Test
    void fromTheCatalog_thePoolsOfItsPerEntityJobsAreRead_andNoOther() {
        JobDefinition reminder = JobDefinition.builder("reminder")
                .schedule("0 9 * * *", "UTC")
                .perEntity(EntityJob.parameters())
                .job(services -> context -> JobResult.empty())
                .build();
        JobDefinition nightly = JobDefinition.builder("nightly")
                .schedule("0 2 * * *", "UTC")
                .pool(new FunctionPool("bulk", 2048, Duration.ofMinutes(15)))
                .job(services -> context -> JobResult.empty())
                .build();
        Map<String, String> outputs = new HashMap<>(stageOutputs());
        // A pool that hosts no per-entity job has no entity role in the stage's outputs.
        outputs.remove(StageOutputs.entitySchedulerRole("bulk"));

        EntityTargets targets = EntityTargets.fromStageOutputs(outputs, JobCatalog.of(reminder, nightly));

        assertThat(targets.pools()).containsOnlyKeys("default");
        assertThat(targets.of("reminder", "default")).isEqualTo(new EntityTargets.PoolTarget(FUNCTION, ROLE));
    }

    /** What DescribeStacks returns for a stage with per-entity jobs in pools default and bulk, and more. */
    private static Map<String, String> stageOutputs() {
        return Map.of(
                StageOutputs.STAGE_NAME,
                "dev",
                StageOutputs.SCHEDULE_GROUP,
                "punctual-dev",
                StageOutputs.ENTITY_SCHEDULE_GROUP,
                "punctual-dev-entities",
                StageOutputs.poolAlias("default"),
                FUNCTION,
                StageOutputs.poolAlias("bulk"),
                BULK_FUNCTION,
                StageOutputs.entitySchedulerRole("default"),
                ROLE,
                StageOutputs.entitySchedulerRole("bulk"),
                BULK_ROLE,
                StageOutputs.SCHEDULER_DEAD_LETTERS,
                DEAD_LETTERS);
    }

    private static void assertRefused(org.assertj.core.api.ThrowableAssert.ThrowingCallable build, String field) {
        assertThatThrownBy(build)
                .isInstanceOfSatisfying(
                        EntityTargetsException.class, e -> assertThat(e.field()).isEqualTo(field))
                .hasMessageStartingWith(field + ": ")
                .hasMessageContaining("accepted: ");
    }
}
