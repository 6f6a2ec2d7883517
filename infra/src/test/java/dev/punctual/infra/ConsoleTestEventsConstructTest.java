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
import software.amazon.awscdk.services.lambda.Runtime;

/**
 * The console's test events on a bare stack holding only the pools' functions (imported by ARN): one
 * create-or-update per pool, served by one function, and in each pool's schema the examples of at most
 * the first fifty of its jobs, every one a payload the handler's parser accepts (ConsoleTestEventsTest
 * checks the examples of the whole dev stage; ConsoleTestEventsDeployTest plays a first deploy).
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
        new ConsoleTestEvents(stack, "ConsoleTestEvents", Runtime.JAVA_25, Synth.code(), functions, jobsByPool);
        template = Template.fromStack(stack);
    }

    @Test
    @SuppressWarnings("unchecked")
    void threePools_getOneCreateOrUpdateEach_servedByOneFunction_allowedOnlyTheRegistryAndTheirSchemas() {
        Map<String, Map<String, Object>> resources = Templates.properties(template, ConsoleTestEvents.RESOURCE_TYPE);

        assertThat(resources).hasSize(3);
        assertThat(template.findResources("Custom::AWS")).isEmpty();
        template.resourceCountIs("AWS::Lambda::Function", 1);
        Map<String, Object> function = Templates.properties(template, "AWS::Lambda::Function")
                .values()
                .iterator()
                .next();
        assertThat(function)
                .containsEntry("Handler", ConsoleTestEvents.HANDLER)
                .containsEntry("Runtime", "java25")
                .containsEntry("Architectures", List.of("arm64"));
        String functionId = template.findResources("AWS::Lambda::Function")
                .keySet()
                .iterator()
                .next();
        assertThat(resources.values())
                .allSatisfy(r -> assertThat(r.get("ServiceToken")).isEqualTo(Templates.getAtt(functionId, "Arn")));
        String policy = template.findResources("AWS::IAM::Policy").toString();
        assertThat(policy)
                .contains(
                        "schemas:CreateRegistry",
                        "registry/lambda-testevent-schemas",
                        "schemas:DescribeSchema",
                        "schemas:CreateSchema",
                        "schemas:UpdateSchema",
                        "schema/lambda-testevent-schemas/_punctual-qa-default-schema",
                        "schema/lambda-testevent-schemas/_punctual-qa-batch-schema",
                        "schema/lambda-testevent-schemas/_punctual-qa-reports-schema")
                .doesNotContain("schemas:Delete", "schemas:*");
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

    /** The properties of the pool's create-or-update: what the function writes on every deploy. */
    private static Map<String, Object> written(String pool) {
        return Templates.properties(template, ConsoleTestEvents.RESOURCE_TYPE).entrySet().stream()
                .filter(e -> e.getKey().contains("Schema" + pool.replace("-", "")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no create-or-update for pool " + pool))
                .getValue();
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
