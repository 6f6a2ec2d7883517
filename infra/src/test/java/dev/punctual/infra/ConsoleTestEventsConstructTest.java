package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.json.Json;
import dev.punctual.runtime.PayloadParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;

/**
 * The console's test events on a bare stack holding only the pools' functions (imported by ARN): a
 * registry call, two schema calls per pool, and in each pool's schema the examples of at most the first
 * fifty of its jobs, every one a payload the handler's parser accepts (ConsoleTestEventsTest checks the
 * examples of the whole example stage).
 */
class ConsoleTestEventsConstructTest {

    /** 240 generated jobs over three pools: 80 each, more than the 50 that get examples. */
    private static final JobCatalog CATALOG = ScaleTest.generated(240);

    private static Template template;

    @BeforeAll
    static void synth() {
        Stack stack = new Stack(
                new App(),
                "Bare",
                StackProps.builder()
                        .env(Environment.builder()
                                .account(BareStage.ACCOUNT)
                                .region(BareStage.REGION)
                                .build())
                        .build());
        Map<String, IFunction> functions = new LinkedHashMap<>();
        Map<String, List<JobDefinition>> jobsByPool = new LinkedHashMap<>();
        for (FunctionPool pool : CATALOG.pools()) {
            functions.put(
                    pool.name(), Function.fromFunctionArn(stack, "Function-" + pool.name(), functionArn(pool.name())));
            jobsByPool.put(pool.name(), CATALOG.inPool(pool.name()));
        }
        new ConsoleTestEvents(stack, "ConsoleTestEvents", functions, jobsByPool);
        template = Template.fromStack(stack);
    }

    @Test
    void threePools_getOneRegistryCall_andACreateAndAWriteCallEach_withOneSharedProvider() {
        Map<String, Map<String, Object>> calls = Templates.properties(template, "Custom::AWS");

        assertThat(calls).hasSize(1 + 2 * 3);
        assertThat(calls.keySet())
                .filteredOn(id -> id.contains("SchemaCreated"))
                .hasSize(3);
        assertThat(calls.keySet())
                .filteredOn(id -> id.contains("SchemaWritten"))
                .hasSize(3);
        template.resourceCountIs("AWS::Lambda::Function", 1);
    }

    @Test
    void eachPoolsSchema_isNamedAfterItsFunction_andHoldsTheFirstFiftyJobsTwiceAndAPing() {
        for (FunctionPool pool : CATALOG.pools()) {
            Map<String, Object> parameters = written(pool.name());
            Map<String, Object> examples = examples(parameters);
            List<JobDefinition> jobs = CATALOG.inPool(pool.name());

            assertThat(jobs).hasSizeGreaterThan(ConsoleTestEvents.MAX_JOBS_WITH_EXAMPLES);
            assertThat(parameters)
                    .containsEntry("SchemaName", "_punctual-qa-" + pool.name() + "-schema")
                    .containsEntry("RegistryName", ConsoleTestEvents.REGISTRY);
            assertThat(examples).hasSize(2 * ConsoleTestEvents.MAX_JOBS_WITH_EXAMPLES + 1);
            String first = jobs.getFirst().id();
            String fiftieth =
                    jobs.get(ConsoleTestEvents.MAX_JOBS_WITH_EXAMPLES - 1).id();
            String fiftyFirst =
                    jobs.get(ConsoleTestEvents.MAX_JOBS_WITH_EXAMPLES).id();
            assertThat(examples)
                    .containsKeys("ping", "run-" + first, "replay-dry-run-" + first, "run-" + fiftieth)
                    .doesNotContainKeys("run-" + fiftyFirst, "replay-dry-run-" + fiftyFirst);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyExampleInTheTemplate_isAPayloadTheHandlerAccepts_forAJobOfItsOwnPool() {
        PayloadParser parser = new PayloadParser(CATALOG);
        List<String> checked = new ArrayList<>();
        for (FunctionPool pool : CATALOG.pools()) {
            examples(written(pool.name())).forEach((name, example) -> {
                Map<String, Object> value = (Map<String, Object>) ((Map<String, Object>) example).get("value");
                String payload = Json.write(value);

                assertThat(parser.parse(payload))
                        .as(name + ": " + payload)
                        .isInstanceOf(PayloadParser.Parsed.Valid.class);
                Object job = value.get("job");
                assertThat(job == null || CATALOG.require((String) job).pool().equals(pool))
                        .as(name + " belongs to pool " + pool.name())
                        .isTrue();
                checked.add(name);
            });
        }
        assertThat(checked).hasSize(3 * (2 * ConsoleTestEvents.MAX_JOBS_WITH_EXAMPLES + 1));
    }

    private static String functionArn(String pool) {
        return "arn:aws:lambda:" + BareStage.REGION + ":" + BareStage.ACCOUNT + ":function:punctual-qa-" + pool;
    }

    /** The parameters of the SDK call that writes the pool's examples on every deploy. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> written(String pool) {
        Map<String, Object> call = Templates.properties(template, "Custom::AWS").entrySet().stream()
                .filter(e -> e.getKey().contains("SchemaWritten" + pool.replace("-", "")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no SchemaWritten call for pool " + pool))
                .getValue();
        Map<String, Object> update;
        try {
            update = (Map<String, Object>) Json.read(String.valueOf(call.get("Update")));
        } catch (Exception e) {
            throw new AssertionError("Update of pool " + pool + " is not literal JSON: " + call.get("Update"), e);
        }
        assertThat(update).containsEntry("action", "updateSchema");
        return (Map<String, Object>) update.get("parameters");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> examples(Map<String, Object> parameters) {
        try {
            Map<String, Object> content = (Map<String, Object>) Json.read((String) parameters.get("Content"));
            return (Map<String, Object>) ((Map<String, Object>) content.get("components")).get("examples");
        } catch (Exception e) {
            throw new AssertionError("Content is not JSON: " + parameters.get("Content"), e);
        }
    }
}
