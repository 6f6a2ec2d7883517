package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.handler.ConsoleTestEventsHandler;
import dev.punctual.handler.SchemasApi;
import dev.punctual.handler.SchemasStandIn;
import dev.punctual.json.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * A first deploy of the dev stage's console test events, played against a local stand-in of the Schemas
 * API: the custom resources of the synthesised template, in their dependency order, each doing on
 * Create what CloudFormation would have it do. A {@code Custom::AWS} (CDK's AwsCustomResource) makes the
 * one SDK call its {@code Create} property renders, and fails the deploy on an error its
 * {@code ignoreErrorCodesMatching} does not match; a {@code Custom::PunctualTestEvents} is the real
 * handler, given the Create event CloudFormation would send. The stand-in refuses an UpdateSchema that
 * changes nothing (the API reference lists only BadRequestException, 403, 404, 500 and 503 for
 * UpdateSchema and is silent about an unchanged one), so a design that creates a schema and then writes
 * the same content into it fails here as it would roll back a first deploy.
 */
class ConsoleTestEventsDeployTest {

    private static StageStack stage;
    private static Map<String, Map<String, Object>> resources;

    private SchemasStandIn standIn;
    private SchemasApi api;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void synth() {
        stage = Synth.stage("dev");
        resources = (Map<String, Map<String, Object>>)
                Template.fromStack(stage).toJSON().get("Resources");
    }

    @BeforeEach
    void start() {
        standIn = SchemasStandIn.start();
        api = new SchemasApi(
                UrlConnectionHttpClient.create(),
                standIn.endpoint(),
                "us-east-1",
                StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")));
    }

    @AfterEach
    void stop() {
        standIn.close();
    }

    @Test
    void firstDeploy_inAnAccountWithoutTheRegistry_succeeds_andEachPoolsSchemaHoldsItsExamples() {
        Optional<String> failure = deploy();

        assertThat(failure).as("the first deploy fails at").isEmpty();
        assertThat(standIn.hasRegistry(ConsoleTestEvents.REGISTRY)).isTrue();
        stage.pools()
                .forEach((pool, construct) -> assertThat(
                                standIn.content(ConsoleTestEvents.REGISTRY, schemaName(construct.function())))
                        .as("schema of pool " + pool)
                        .isEqualTo(ConsoleTestEvents.content(Synth.CATALOG.inPool(pool))));
    }

    @Test
    void firstDeploy_whereSomeoneSavedShareableEventsAlready_succeeds_andWritesTheCatalogsExamples() {
        stage.pools()
                .values()
                .forEach(construct -> standIn.existingSchema(
                        ConsoleTestEvents.REGISTRY,
                        schemaName(construct.function()),
                        "{\"components\":{\"examples\":{}}}"));

        Optional<String> failure = deploy();

        assertThat(failure).as("the first deploy fails at").isEmpty();
        stage.pools()
                .forEach((pool, construct) -> assertThat(
                                standIn.content(ConsoleTestEvents.REGISTRY, schemaName(construct.function())))
                        .isEqualTo(ConsoleTestEvents.content(Synth.CATALOG.inPool(pool))));
    }

    /** The schema name the template computes for a function, with its name as {@link #resolve} names it. */
    private static String schemaName(IFunction function) {
        return "_" + nameOf(Templates.logicalId(function)) + "-schema";
    }

    private static String nameOf(String logicalId) {
        return "name-of-" + logicalId;
    }

    /** Creates the template's custom resources in dependency order; the first failure, if any. */
    private Optional<String> deploy() {
        for (String id : inDependencyOrder()) {
            Map<String, Object> resource = resources.get(id);
            String type = (String) resource.get("Type");
            @SuppressWarnings("unchecked")
            Map<String, Object> properties = (Map<String, Object>) resolve(resource.get("Properties"));
            Optional<String> failure = "Custom::AWS".equals(type)
                    ? sdkCall(id, properties)
                    : "Custom::PunctualTestEvents".equals(type) ? handler(id, properties) : Optional.empty();
            if (failure.isPresent()) {
                return failure;
            }
        }
        return Optional.empty();
    }

    /** What the AwsCustomResource provider does on Create: the one rendered call, tolerating what it ignores. */
    @SuppressWarnings("unchecked")
    private Optional<String> sdkCall(String id, Map<String, Object> properties) {
        Map<String, Object> call;
        try {
            call = (Map<String, Object>) Json.read((String) properties.get("Create"));
        } catch (Json.NotJsonException e) {
            throw new AssertionError(id + ": Create is not JSON: " + properties.get("Create"), e);
        }
        Map<String, Object> p = (Map<String, Object>) call.get("parameters");
        String ignore = (String) call.get("ignoreErrorCodesMatching");
        try {
            switch ((String) call.get("action")) {
                case "createRegistry" ->
                    api.createRegistry((String) p.get("RegistryName"), (String) p.get("Description"));
                case "createSchema" ->
                    api.createSchema(
                            (String) p.get("RegistryName"),
                            (String) p.get("SchemaName"),
                            (String) p.get("Type"),
                            (String) p.get("Content"),
                            (String) p.get("Description"));
                case "updateSchema" ->
                    api.updateSchema(
                            (String) p.get("RegistryName"),
                            (String) p.get("SchemaName"),
                            (String) p.get("Type"),
                            (String) p.get("Content"),
                            (String) p.get("Description"));
                default -> throw new AssertionError(id + ": a call this test does not know: " + call.get("action"));
            }
            return Optional.empty();
        } catch (SchemasApi.Refused refused) {
            if (ignore != null && refused.code().matches(ignore)) {
                return Optional.empty();
            }
            return Optional.of(id + ": " + refused.getMessage());
        }
    }

    /** The real custom-resource handler, sent the Create event CloudFormation would send. */
    @SuppressWarnings("unchecked")
    private Optional<String> handler(String id, Map<String, Object> properties) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", "Create");
        event.put("ResponseURL", standIn.responseUrl(id));
        event.put("StackId", "arn:aws:cloudformation:us-east-1:111111111111:stack/Punctual-dev/first");
        event.put("RequestId", "first-" + id);
        event.put("ResourceType", "Custom::PunctualTestEvents");
        event.put("LogicalResourceId", id);
        event.put("ResourceProperties", properties);
        try {
            new ConsoleTestEventsHandler(api, UrlConnectionHttpClient.create(), line -> {})
                    .handleRequest(
                            new ByteArrayInputStream(Json.write(event).getBytes(StandardCharsets.UTF_8)),
                            new ByteArrayOutputStream(),
                            null);
            Map<String, Object> answer = (Map<String, Object>) Json.read(standIn.response(id));
            return "SUCCESS".equals(answer.get("Status"))
                    ? Optional.empty()
                    : Optional.of(id + ": " + answer.get("Reason"));
        } catch (Exception e) {
            throw new AssertionError(id, e);
        }
    }

    /** The custom resources, each after those it depends on (DependsOn, and Ref/GetAtt between them). */
    private static List<String> inDependencyOrder() {
        Set<String> custom = new LinkedHashSet<>();
        resources.forEach((id, r) -> {
            if (((String) r.get("Type")).startsWith("Custom::")) {
                custom.add(id);
            }
        });
        List<String> order = new ArrayList<>();
        Set<String> visiting = new LinkedHashSet<>();
        for (String id : custom) {
            visit(id, custom, order, visiting);
        }
        return order;
    }

    private static void visit(String id, Set<String> custom, List<String> order, Set<String> visiting) {
        if (order.contains(id) || !visiting.add(id)) {
            return;
        }
        Object dependsOn = resources.get(id).get("DependsOn");
        List<?> deps = dependsOn instanceof List<?> l ? l : dependsOn == null ? List.of() : List.of(dependsOn);
        for (Object dep : deps) {
            if (custom.contains(dep)) {
                visit((String) dep, custom, order, visiting);
            }
        }
        order.add(id);
    }

    /**
     * The template's value with its intrinsics worked out as CloudFormation would, for the few this
     * template uses in these properties: {@code Ref} to a resource (its name, here {@code name-of-<id>}) or
     * a pseudo parameter, {@code Fn::GetAtt} (an ARN-like placeholder) and {@code Fn::Join}.
     */
    @SuppressWarnings("unchecked")
    private static Object resolve(Object value) {
        if (value instanceof Map<?, ?> map) {
            if (map.size() == 1 && map.containsKey("Ref")) {
                String ref = (String) map.get("Ref");
                return switch (ref) {
                    case "AWS::Region" -> "us-east-1";
                    case "AWS::AccountId" -> "111111111111";
                    case "AWS::Partition" -> "aws";
                    default -> nameOf(ref);
                };
            }
            if (map.size() == 1 && map.containsKey("Fn::GetAtt")) {
                List<Object> att = (List<Object>) map.get("Fn::GetAtt");
                return "arn:aws:stand-in:us-east-1:111111111111:" + att.get(0) + "/" + att.get(1);
            }
            if (map.size() == 1 && map.containsKey("Fn::Join")) {
                List<Object> join = (List<Object>) map.get("Fn::Join");
                StringBuilder out = new StringBuilder();
                List<Object> parts = (List<Object>) join.get(1);
                for (int i = 0; i < parts.size(); i++) {
                    out.append(i == 0 ? "" : join.get(0)).append(resolve(parts.get(i)));
                }
                return out.toString();
            }
            Map<String, Object> out = new LinkedHashMap<>();
            ((Map<String, Object>) map).forEach((k, v) -> out.put(k, resolve(v)));
            return out;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(ConsoleTestEventsDeployTest::resolve).toList();
        }
        return value;
    }
}
