package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageOutputs;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.sqs.Queue;

/**
 * The stage's outputs on a bare stack holding only imported references to a stage's resources: every
 * key the CLI reads, with its value and description, no exports, and the operator policy they name
 * (StageOutputsTest checks the outputs of a whole stage).
 */
class StageOutputsConstructTest {

    private static Template template;
    private static Map<String, Map<String, Object>> outputs;

    @BeforeAll
    static void synth() {
        BareStage bare = new BareStage();
        new StageOutputsConstruct(bare.stack, "StageOutputs", bare.operated);
        template = Template.fromStack(bare.stack);
        outputs = template.findOutputs("*");
    }

    @Test
    void everyKeyTheCliReads_isOutput_withTheImportedResourcesValue_andNoExport() {
        Map<String, Object> expected = new TreeMap<>();
        expected.put(StageOutputs.STAGE_NAME, "qa");
        expected.put(StageOutputs.LEDGER_TABLE, "punctual-qa-ledger");
        expected.put(StageOutputs.jobTable("Reservations"), "punctual-qa-reservations");
        expected.put(StageOutputs.jobTable("Members"), "punctual-qa-members");
        expected.put(StageOutputs.SCHEDULE_GROUP, "punctual-qa");
        expected.put(StageOutputs.ALARM_TOPIC, BareStage.TOPIC);
        for (String pool : BareStage.POOLS) {
            expected.put(StageOutputs.poolAlias(pool), BareStage.alias(pool));
            expected.put(StageOutputs.logGroup(pool), "/punctual/qa/" + pool);
        }
        SavedQueries.ALL.forEach(q -> expected.put(StageOutputs.savedQuery(q.name()), "punctual/qa/" + q.name()));
        expected.put(StageOutputs.OPERATOR_POLICY, Templates.ref(operatorPolicyId()));

        Map<String, Object> values = new TreeMap<>();
        outputs.forEach((key, output) -> values.put(key, output.get("Value")));
        assertThat(values).isEqualTo(expected);
        assertThat(outputs.values()).allSatisfy(o -> assertThat(o).doesNotContainKey("Export"));
    }

    @Test
    void everyOutput_isDescribed_andThePoolsAndTheStageAreNamedInTheirs() {
        assertThat(outputs.values())
                .allSatisfy(o -> assertThat((String) o.get("Description")).isNotBlank());
        assertThat(description(StageOutputs.STAGE_NAME)).contains("punctual --stage qa");
        assertThat(description(StageOutputs.poolAlias("maintenance")))
                .contains("live alias of pool maintenance", "punctual run/replay");
        assertThat(description(StageOutputs.logGroup("default"))).contains("pool default");
        assertThat(description(StageOutputs.OPERATOR_POLICY)).contains("docs/runbook.md");
        assertThat(description(StageOutputs.jobTable("Members"))).contains("table Members");
    }

    @Test
    void theOperatorPolicy_isTheOnlyResource() {
        assertThat(OperatorPolicyTest.resourceTypes(template)).containsExactly("AWS::IAM::ManagedPolicy");
    }

    @Test
    void twoPoolsWhoseNamesDifferOnlyByAHyphen_areRefused_namingTheKey() {
        BareStage bare = new BareStage();
        Map<String, OperatedStage.Pool> pools = new LinkedHashMap<>();
        for (String pool : List.of("a-1", "a1")) {
            pools.put(
                    pool,
                    new OperatedStage.Pool(
                            Function.fromFunctionArn(bare.stack, "Clash-" + pool, BareStage.alias(pool)),
                            Function.fromFunctionArn(bare.stack, "ClashFunction-" + pool, BareStage.function(pool)),
                            LogGroup.fromLogGroupArn(bare.stack, "ClashLogs-" + pool, BareStage.logGroup(pool)),
                            Queue.fromQueueArn(bare.stack, "ClashQueue-" + pool, BareStage.failureQueue(pool))));
        }
        OperatedStage clashing = new OperatedStage(
                "qa",
                bare.operated.ledger(),
                bare.operated.jobTables(),
                bare.operated.schedules(),
                bare.operated.schedulerDeadLetters(),
                bare.operated.alarmTopic(),
                bare.operated.alertDeadLetters(),
                pools);

        assertThatThrownBy(() -> new StageOutputsConstruct(bare.stack, "StageOutputs", clashing))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining("output PoolAliasA1 is declared twice");
    }

    private static String description(String key) {
        return (String) outputs.get(key).get("Description");
    }

    private static String operatorPolicyId() {
        return template.findResources("AWS::IAM::ManagedPolicy")
                .keySet()
                .iterator()
                .next();
    }
}
