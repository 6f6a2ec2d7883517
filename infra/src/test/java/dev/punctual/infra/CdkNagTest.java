package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.EntityJob;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.runtime.MissedRunWatchdog;
import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.NestedStack;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.Table;

/** cdk-nag's AwsSolutions pack reports nothing that is not suppressed with a reason in code. */
class CdkNagTest {

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void awsSolutions_onEveryStage_reportsNoUnsuppressedFinding(String stage) {
        Annotations annotations = Annotations.fromStack(Synth.stage(stage));

        assertThat(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .as("errors")
                .isEmpty();
        assertThat(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .as("warnings")
                .isEmpty();
    }

    /**
     * A stage pinned to its account and region (as CI synthesises prod) has them as literals in its
     * wildcard ARNs, which is how the operator policy's suppression must name them to cover them.
     */
    @Test
    void awsSolutions_onAStagePinnedToItsAccount_reportsNoUnsuppressedFinding() {
        StageConfig pinned = Stages.named("prod").pinnedTo("123456789012", "eu-central-1");
        Annotations annotations = Annotations.fromStack(Synth.stage(pinned, Synth.CATALOG));

        assertThat(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .as("errors")
                .isEmpty();
        assertThat(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .as("warnings")
                .isEmpty();
    }

    /**
     * A stage with a per-entity job adds the entity group, its roles and the services' policy, whose
     * wildcards (the group's schedules, ListSchedules' {@code *}) are suppressed one by one: unpinned, and
     * pinned so that the account and region are literals in the finding.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void awsSolutions_onAStageWithAPerEntityJob_reportsNoUnsuppressedFinding(boolean pinned) {
        StageConfig config =
                pinned ? Stages.named("prod").pinnedTo("123456789012", "eu-central-1") : Stages.named("dev");
        JobCatalog catalog = JobCatalog.of(JobDefinition.builder("tenant-report")
                        .schedule("0 9 * * *", "UTC")
                        .perEntity(EntityJob.parameters("locale"))
                        .job(services -> context -> JobResult.empty())
                        .build())
                .plus(List.of(MissedRunWatchdog.definition()));
        StageStack stage = Synth.stage(config, catalog);
        Annotations annotations = Annotations.fromStack(stage);

        assertThat(stage.entityScheduling()).isPresent();
        assertThat(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .as("errors")
                .isEmpty();
        assertThat(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .as("warnings")
                .isEmpty();
    }

    /**
     * A stage with long jobs adds their state machines (logging every event, no X-Ray: suppressed with its
     * reason), their roles (log delivery on {@code *}), the pools' grants on their executions and the
     * operator's (wildcards of the stage's own state machines' executions, suppressed one by one), the
     * status rule and its dead-letter queue: unpinned, and pinned.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void awsSolutions_onAStageWithLongJobs_reportsNoUnsuppressedFinding(boolean pinned) {
        StageConfig config =
                pinned ? Stages.named("prod").pinnedTo("123456789012", "eu-central-1") : Stages.named("dev");
        FunctionPool batch = new FunctionPool("batch", 512, java.time.Duration.ofMinutes(5));
        JobCatalog catalog = JobCatalog.of(
                        LongJobs.inPool("month-end", batch),
                        LongJobs.perEntity("tenant-close", batch),
                        LongJobs.job("rebuild", java.time.Duration.ofHours(1), 1, 1))
                .plus(List.of(MissedRunWatchdog.definition()));
        StageStack stage = Synth.stage(config, catalog);
        Annotations annotations = Annotations.fromStack(stage);

        assertThat(stage.longRuns()).isPresent();
        assertThat(annotations.findError("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .as("errors")
                .isEmpty();
        assertThat(annotations.findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")))
                .as("warnings")
                .isEmpty();
    }

    /**
     * Guards the test above against passing vacuously: the same checks do flag a careless table, and
     * a finding inside a nested stack (where the jobs stacks put schedules and alarms) is reported on
     * the parent stack that the test above reads.
     */
    @Test
    void awsSolutions_onTableWithoutPointInTimeRecoveryInANestedStack_reportsDdb3OnTheParent() {
        App app = new App();
        Stack stack = new Stack(app, "Careless");
        Table.Builder.create(new NestedStack(stack, "Nested"), "NoBackups")
                .partitionKey(Attribute.builder()
                        .name("pk")
                        .type(AttributeType.STRING)
                        .build())
                .build();
        Aspects.of(app).add(new AwsSolutionsChecks());

        assertThat(Annotations.fromStack(stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-DDB3.*")))
                .isNotEmpty();
    }
}
