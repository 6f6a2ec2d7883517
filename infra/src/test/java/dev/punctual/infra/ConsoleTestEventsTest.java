package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.EntityJob;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.json.Json;
import dev.punctual.runtime.PayloadParser;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/** Each pool's function offers the console a test event per job, valid on any day, plus a ping. */
class ConsoleTestEventsTest {

    private static StageStack dev;
    private static Template template;

    @BeforeAll
    static void synth() {
        dev = Synth.stage("dev");
        template = Template.fromStack(dev);
    }

    @Test
    void eachPool_getsOneCreateOrUpdateOfItsFunctionsSchema_andNothingDeletesIt() {
        Map<String, Map<String, Object>> writes = Templates.properties(template, ConsoleTestEvents.RESOURCE_TYPE);

        assertThat(writes).hasSize(dev.pools().size());
        for (FunctionPoolConstruct pool : dev.pools().values()) {
            String function = Templates.logicalId(pool.function());
            String name = pool.getNode().getId().substring("Pool-".length());
            assertThat(writes.entrySet())
                    .filteredOn(e -> e.getKey().contains("Schema" + name))
                    .singleElement()
                    .satisfies(e -> assertThat(e.getValue().toString())
                            .contains(function, "-schema", "RegistryName=" + ConsoleTestEvents.REGISTRY)
                            .contains("Content=" + ConsoleTestEvents.content(Synth.CATALOG.inPool(name))));
        }
        assertThat(template.findResources("Custom::AWS"))
                .as("no AwsCustomResource left")
                .isEmpty();
        assertThat(template.findResources("AWS::EventSchemas::Schema")).isEmpty();
        assertThat(template.findResources("AWS::EventSchemas::Registry")).isEmpty();
        assertThat(template.findResources("AWS::IAM::Policy").toString()).doesNotContain("schemas:Delete");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyExample_isAValidPayloadOfAJobOfThePool_orAPing() throws Exception {
        JobCatalog catalog = Synth.CATALOG;
        for (String pool : dev.pools().keySet()) {
            Map<String, Object> content =
                    (Map<String, Object>) Json.read(ConsoleTestEvents.content(catalog.inPool(pool)));
            Map<String, Object> examples =
                    (Map<String, Object>) ((Map<String, Object>) content.get("components")).get("examples");

            assertThat(examples).hasSize(2 * catalog.inPool(pool).size() + 1);
            examples.forEach((name, example) -> {
                Object value = ((Map<String, Object>) example).get("value");
                String payload = Json.write(value);
                assertThat(new PayloadParser(catalog).parse(payload))
                        .as(name + ": " + payload)
                        .isInstanceOf(PayloadParser.Parsed.Valid.class);
                Object job = ((Map<String, Object>) value).get("job");
                assertThat(job == null
                                || catalog.require((String) job).pool().name().equals(pool))
                        .as(name + " belongs to pool " + pool)
                        .isTrue();
            });
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void poolOfTwoThousandJobs_getsExamplesForTheFirstFiftyOnly_soTheTemplateStaysSmall() throws Exception {
        Map<String, Object> content = (Map<String, Object>)
                Json.read(ConsoleTestEvents.content(ScaleTest.generated(2_000).jobs()));
        Map<String, Object> examples =
                (Map<String, Object>) ((Map<String, Object>) content.get("components")).get("examples");

        assertThat(examples)
                .hasSize(2 * ConsoleTestEvents.MAX_JOBS_WITH_EXAMPLES + 1)
                .containsKey("run-job-049");
    }

    @Test
    void theFunctionServingThem_runsTheJarsHandler_withNoEnvironmentOfThePools() {
        Map<String, Object> function = Templates.properties(template, "AWS::Lambda::Function").values().stream()
                .filter(f -> ConsoleTestEvents.HANDLER.equals(f.get("Handler")))
                .findFirst()
                .orElseThrow();

        assertThat(function).doesNotContainKey("Environment").containsEntry("Timeout", 120);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aPerEntityJobsExamples_nameAnExampleEntityAndZone_andParseAsThatEntitysPayloads() throws Exception {
        JobDefinition report = JobDefinition.builder("tenant-report")
                .schedule("0 9 * * *", "UTC")
                .perEntity(EntityJob.parameters("locale"))
                .job(s -> ctx -> JobResult.empty())
                .build();
        JobCatalog catalog = JobCatalog.of(report);
        Map<String, Object> examples = (Map<String, Object>) ((Map<String, Object>)
                        ((Map<String, Object>) Json.read(ConsoleTestEvents.content(catalog.jobs()))).get("components"))
                .get("examples");

        assertThat(examples).containsOnlyKeys("run-tenant-report", "replay-dry-run-tenant-report", "ping");
        for (String name : java.util.List.of("run-tenant-report", "replay-dry-run-tenant-report")) {
            Map<String, Object> value = (Map<String, Object>) ((Map<String, Object>) examples.get(name)).get("value");
            assertThat(value)
                    .containsEntry("entity", ConsoleTestEvents.EXAMPLE_ENTITY)
                    .containsEntry("zone", "UTC");
            assertThat(new PayloadParser(catalog).parse(Json.write(value)))
                    .as(name)
                    .isInstanceOf(PayloadParser.Parsed.Valid.class);
        }
    }
}
