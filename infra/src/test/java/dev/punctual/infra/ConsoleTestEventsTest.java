package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.JobCatalog;
import dev.punctual.json.Json;
import dev.punctual.runtime.PayloadParser;
import java.util.List;
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
    @SuppressWarnings("unchecked")
    void eachPool_hasASchemaNamedForItsFunction_inTheConsolesRegistry() {
        Map<String, Map<String, Object>> schemas = Templates.properties(template, "AWS::EventSchemas::Schema");

        assertThat(schemas).hasSize(dev.pools().size());
        for (FunctionPoolConstruct pool : dev.pools().values()) {
            Object name = Map.of(
                    "Fn::Join",
                    List.of("", List.of("_", Templates.ref(Templates.logicalId(pool.function())), "-schema")));
            assertThat(schemas.values())
                    .anySatisfy(schema -> assertThat(schema)
                            .containsEntry("RegistryName", ConsoleTestEvents.REGISTRY)
                            .containsEntry("Type", "OpenApi3")
                            .containsEntry("SchemaName", name));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyExample_isAValidPayloadOfAJobInThatPool_orAPing() throws Exception {
        JobCatalog catalog = Synth.CATALOG;
        int examples = 0;
        for (Map<String, Object> schema :
                Templates.properties(template, "AWS::EventSchemas::Schema").values()) {
            Map<String, Object> content = (Map<String, Object>) Json.read((String) schema.get("Content"));
            Map<String, Object> all =
                    (Map<String, Object>) ((Map<String, Object>) content.get("components")).get("examples");
            for (Map.Entry<String, Object> example : all.entrySet()) {
                String payload = Json.write(((Map<String, Object>) example.getValue()).get("value"));
                assertThat(new PayloadParser(catalog).parse(payload))
                        .as(example.getKey() + ": " + payload)
                        .isInstanceOf(PayloadParser.Parsed.Valid.class);
                examples++;
            }
        }
        assertThat(examples).isEqualTo(2 * catalog.jobs().size() + dev.pools().size());
    }

    @Test
    void registry_isEnsuredByOneCallThatToleratesAnExistingOne_andIsNeverDeleted() {
        String rendered = template.findResources("Custom::AWS").toString();

        assertThat(rendered)
                .contains("createRegistry", "ConflictException", ConsoleTestEvents.REGISTRY)
                .doesNotContain("deleteRegistry");
        assertThat(template.findResources("AWS::EventSchemas::Registry")).isEmpty();
    }
}
