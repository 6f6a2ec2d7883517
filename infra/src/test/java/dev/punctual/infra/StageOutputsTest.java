package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.job.FunctionPool;
import dev.punctual.stage.StageOutputs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * One contract between infra and the CLI: the stage stack declares the outputs the CLI's
 * {@code StageDiscovery} reads, under the shared {@link StageOutputs} keys, with no exports.
 */
class StageOutputsTest {

    private static final StageStack DEV = Synth.stage("dev");
    private static final Map<String, Map<String, Object>> OUTPUTS =
            Template.fromStack(DEV).findOutputs("*");

    @Test
    void theStageStack_outputsEveryKeyTheCliReads_forEveryPoolAndSavedQuery() {
        List<String> expected = new ArrayList<>(List.of(
                StageOutputs.STAGE_NAME,
                StageOutputs.LEDGER_TABLE,
                StageOutputs.jobTable(FixtureCatalog.RECORDS.name()),
                StageOutputs.SCHEDULE_GROUP,
                StageOutputs.ALARM_TOPIC,
                StageOutputs.OPERATOR_POLICY));
        for (FunctionPool pool : Synth.CATALOG.pools()) {
            expected.add(StageOutputs.poolAlias(pool.name()));
            expected.add(StageOutputs.logGroup(pool.name()));
        }
        SavedQueries.ALL.forEach(q -> expected.add(StageOutputs.savedQuery(q.name())));

        assertThat(OUTPUTS).containsKeys(expected.toArray(String[]::new));
        assertThat(OUTPUTS.values()).allSatisfy(o -> assertThat(o).doesNotContainKey("Export"));
    }

    @Test
    void theStageName_andTheSavedQueryNames_areLiterals_thePoolAliasesReferTheLiveAliases() {
        assertThat(OUTPUTS.get(StageOutputs.STAGE_NAME).get("Value")).isEqualTo("dev");
        assertThat(OUTPUTS.get(StageOutputs.savedQuery("job-timeline")).get("Value"))
                .isEqualTo("punctual/dev/job-timeline");
        assertThat(OUTPUTS.get(StageOutputs.poolAlias("default")).get("Value"))
                .isEqualTo(Templates.ref(
                        Templates.logicalId(DEV.pools().get("default").alias())));
        assertThat(OUTPUTS.get(StageOutputs.logGroup(FixtureCatalog.POOL)).get("Value"))
                .isEqualTo(Templates.ref(
                        Templates.logicalId(DEV.pools().get(FixtureCatalog.POOL).logGroup())));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theOperatorPolicy_invokesOnlyTheAliases_readsTheLedger_writesLockItemsAndPlannedSkips_andRunsQueries() {
        Map<String, Map<String, Object>> policies =
                new TreeMap<>(Template.fromStack(DEV).findResources("AWS::IAM::ManagedPolicy"));
        // The others are the pools' ledger grants, attached to their roles.
        policies.keySet().removeIf(id -> id.startsWith("Pool"));
        assertThat(policies).hasSize(1);
        String document = policies.values().iterator().next().toString();

        assertThat(document)
                .contains("lambda:InvokeFunction", "dynamodb:GetItem", "dynamodb:Query", "logs:StartQuery")
                .contains("dynamodb:LeadingKeys", OperatorPolicy.LOCK_ITEMS, "cloudformation:DescribeStacks")
                .contains(
                        "lambda:GetFunctionConfiguration",
                        "scheduler:GetSchedule",
                        "dynamodb:DescribeContinuousBackups",
                        "sqs:GetQueueAttributes",
                        "cloudwatch:DescribeAlarms",
                        "logs:FilterLogEvents")
                .doesNotContain("dynamodb:TransactWriteItems", "lambda:*", "dynamodb:*");
        // Puts and deletes are skip's and unskip's (decision 0037): planned skips' run items only, each
        // naming its attributes, never a lock item (CliWritesPolicyTest checks each request).
        Map<String, Object> properties =
                (Map<String, Object>) policies.values().iterator().next().get("Properties");
        List<Map<String, Object>> statements =
                (List<Map<String, Object>>) ((Map<String, Object>) properties.get("PolicyDocument")).get("Statement");
        List<Map<String, Object>> putsAndDeletes = statements.stream()
                .filter(statement ->
                        String.valueOf(statement.get("Action")).matches(".*dynamodb:(PutItem|DeleteItem).*"))
                .toList();
        // ...and approve's planned approval (decision 0041), a run item naming its attributes too.
        assertThat(putsAndDeletes)
                .hasSize(3)
                .allSatisfy(statement -> assertThat(statement.get("Condition").toString())
                        .contains("dynamodb:LeadingKeys=[" + LedgerLayout.RUN_ITEMS + "]", "dynamodb:Attributes=")
                        .doesNotContain("lock#", "leaseFence", "cursor"));
        assertThat(OUTPUTS.get(StageOutputs.OPERATOR_POLICY).get("Value"))
                .isEqualTo(Templates.ref(policies.keySet().iterator().next()));
    }

    @Test
    void outputKeys_arePascalCaseOfTheNames() {
        assertThat(StageOutputs.poolAlias("my-pool-2")).isEqualTo("PoolAliasMyPool2");
        assertThat(StageOutputs.savedQuery("catch-up-and-missed")).isEqualTo("QueryCatchUpAndMissed");
        assertThat(StageOutputs.entitySchedulerRole("my-pool-2")).isEqualTo("EntitySchedulerRoleMyPool2");
        assertThat(StageOutputs.stackName("prod")).isEqualTo("Punctual-prod");
    }
}
