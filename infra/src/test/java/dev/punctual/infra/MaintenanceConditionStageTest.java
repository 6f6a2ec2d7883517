package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobTable;
import dev.punctual.job.MaintenanceCondition;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * A catalog's maintenance condition in the stage (decision 0036, 5): every pool evaluates it before each
 * occurrence, so every pool's function reads the condition's table name and may Query exactly what the
 * condition reads, whatever its own jobs use; the stage alarms on a condition that cannot be evaluated,
 * and a stage without conditions has neither.
 */
class MaintenanceConditionStageTest {

    private static final JobTable MEMBERS = JobTable.builder("Members")
            .environmentVariable("MEMBERS_TABLE")
            .partitionKey("pk", JobTable.AttributeType.STRING)
            .globalIndex("byOrigin", "origin", JobTable.AttributeType.STRING)
            .actions("dynamodb:PutItem")
            .build();

    private static final FunctionPool BATCH = new FunctionPool("batch", 1024, Duration.ofMinutes(5));

    private static JobDefinition.Builder job(String id) {
        return JobDefinition.builder(id).schedule("0 6 * * *", "Europe/Berlin").job(s -> ctx -> JobResult.empty());
    }

    private static JobCatalog catalog() {
        return JobCatalog.of(
                job("loader").uses(MEMBERS).build(), job("report").pool(BATCH).build());
    }

    @Test
    void everyPool_readsTheConditionsTableName_andMayQueryOnlyTheIndexItReads() {
        StageStack stage = Synth.stage(
                Stages.named("dev"),
                catalog()
                        .withMaintenanceCondition(MaintenanceCondition.whileItemsExist(
                                        "seeded", MEMBERS, "seed-tool", "the seed tool's data is loaded")
                                .onIndex("byOrigin")));
        Template template = Template.fromStack(stage);
        String members = Templates.logicalId(stage.tables().jobTable("Members"));

        for (String pool : List.of("default", "batch")) {
            FunctionPoolConstruct construct = stage.pools().get(pool);
            assertThat(Templates.variables(template, construct))
                    .as(pool)
                    .containsEntry("MEMBERS_TABLE", Templates.ref(members));
            assertThat(Templates.policyOf(template, construct)).as(pool).contains("dynamodb:Query", "/index/byOrigin");
        }
        assertThat(Templates.policyOf(template, stage.pools().get("batch")))
                .as("the condition's read, not the loader's PutItem")
                .doesNotContain("PutItem");
        assertThat(alarmNames(template)).contains("Punctual-dev-MaintenanceUnknown");
    }

    @Test
    void aStageWithoutConditions_hasNoConditionGrantAndNoAlarmForIt() {
        StageStack stage = Synth.stage(Stages.named("dev"), catalog());
        Template template = Template.fromStack(stage);

        assertThat(Templates.variables(template, stage.pools().get("batch"))).doesNotContainKey("MEMBERS_TABLE");
        assertThat(Templates.policyOf(template, stage.pools().get("batch"))).doesNotContain("dynamodb:Query");
        assertThat(alarmNames(template)).noneMatch(n -> n.contains("MaintenanceUnknown"));
    }

    private static List<String> alarmNames(Template template) {
        return Templates.properties(template, "AWS::CloudWatch::Alarm").values().stream()
                .map(a -> String.valueOf(a.get("AlarmName")))
                .toList();
    }
}
