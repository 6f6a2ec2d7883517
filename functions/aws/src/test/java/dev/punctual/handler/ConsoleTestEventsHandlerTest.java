package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.json.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;

/**
 * The console test events' custom resource against a local stand-in of the Schemas API and of
 * CloudFormation's response URL (SchemasStandIn): real CloudFormation events in, signed HTTP calls out,
 * the answer PUT where CloudFormation waits for it. The stand-in refuses an unchanged UpdateSchema, the
 * strictest answer the service could give; the handler never sends one.
 */
class ConsoleTestEventsHandlerTest {

    static final String REGISTRY = "lambda-testevent-schemas";
    static final String SCHEMA = "_Punctual-dev-PooldefaultFunction-AbC123-schema";
    static final String CONTENT =
            "{\"openapi\":\"3.0.0\",\"components\":{\"examples\":{\"ping\":{\"value\":{\"kind\":\"ping\"}}}}}";

    private SchemasStandIn standIn;
    private ConsoleTestEventsHandler handler;
    private final List<String> log = new ArrayList<>();
    private int events;

    @BeforeEach
    void start() {
        standIn = SchemasStandIn.start();
        handler = new ConsoleTestEventsHandler(
                new SchemasApi(
                        UrlConnectionHttpClient.create(),
                        standIn.endpoint(),
                        "eu-central-1",
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test"))),
                UrlConnectionHttpClient.create(),
                log::add);
    }

    @AfterEach
    void stop() {
        standIn.close();
    }

    @Test
    void firstDeploy_noRegistryNoSchema_createsBothOnce_andSendsNoUpdate() throws Exception {
        Map<String, Object> answer = send("Create", CONTENT);

        assertThat(answer)
                .containsEntry("Status", "SUCCESS")
                .containsEntry("PhysicalResourceId", "schema/" + REGISTRY + "/" + SCHEMA);
        assertThat(answer.get("Data").toString()).contains("Written=created", "SchemaVersion=1");
        assertThat(standIn.calls())
                .extracting(SchemasStandIn.Call::operation)
                .containsExactly("CreateRegistry", "DescribeSchema", "CreateSchema");
        assertThat(standIn.content(REGISTRY, SCHEMA)).isEqualTo(CONTENT);
    }

    @Test
    void firstDeploy_registryAndSchemaSavedInTheConsole_replacesTheContentOnce() throws Exception {
        standIn.existingSchema(REGISTRY, SCHEMA, "{\"components\":{\"examples\":{\"mine\":{\"value\":{}}}}}");

        Map<String, Object> answer = send("Create", CONTENT);

        assertThat(answer).containsEntry("Status", "SUCCESS");
        assertThat(answer.get("Data").toString()).contains("Written=updated", "SchemaVersion=2");
        assertThat(standIn.calls())
                .extracting(SchemasStandIn.Call::operation)
                .containsExactly("CreateRegistry", "DescribeSchema", "UpdateSchema");
        assertThat(standIn.content(REGISTRY, SCHEMA)).isEqualTo(CONTENT);
    }

    @Test
    void deployWithTheSameContent_sendsNoUpdate_andSucceeds() throws Exception {
        send("Create", CONTENT);

        Map<String, Object> again = send("Update", CONTENT);

        assertThat(again).containsEntry("Status", "SUCCESS");
        assertThat(again.get("Data").toString()).contains("Written=unchanged", "SchemaVersion=1");
        assertThat(standIn.calls()).extracting(SchemasStandIn.Call::operation).doesNotContain("UpdateSchema");
        assertThat(standIn.versions(REGISTRY, SCHEMA)).isEqualTo(1);
    }

    @Test
    void sameContentReformattedByTheService_isUnchanged() throws Exception {
        standIn.existingSchema(
                REGISTRY,
                SCHEMA,
                "{\n  \"components\" : {\"examples\": {\"ping\": {\"value\": {\"kind\": \"ping\"}}}},\n  \"openapi\": \"3.0.0\"\n}");
        // The schema as the stage writes it has the description "Punctual test events".
        standIn.refusesUnchangedUpdates(true);

        Map<String, Object> answer = send("Create", CONTENT, "");

        assertThat(answer).containsEntry("Status", "SUCCESS");
        assertThat(answer.get("Data").toString()).contains("Written=unchanged");
    }

    @Test
    void changedContent_isOneUpdate() throws Exception {
        send("Create", CONTENT);
        String changed = CONTENT.replace("ping", "pong");

        Map<String, Object> answer = send("Update", changed);

        assertThat(answer).containsEntry("Status", "SUCCESS");
        assertThat(answer.get("Data").toString()).contains("Written=updated", "SchemaVersion=2");
        assertThat(standIn.content(REGISTRY, SCHEMA)).isEqualTo(changed);
    }

    @Test
    void registryMadeByTheConsoleOrAnotherStage_isTakenAsIs() throws Exception {
        standIn.existingRegistry(REGISTRY);

        assertThat(send("Create", CONTENT)).containsEntry("Status", "SUCCESS");
        assertThat(standIn.content(REGISTRY, SCHEMA)).isEqualTo(CONTENT);
    }

    @Test
    void aRefusedCall_answersFailedNamingIt_insteadOfLeavingCloudFormationWaiting() throws Exception {
        standIn.refuse("CreateSchema", 403);

        Map<String, Object> answer = send("Create", CONTENT);

        assertThat(answer).containsEntry("Status", "FAILED");
        assertThat((String) answer.get("Reason")).contains("CreateSchema refused: 403 ForbiddenException");
        assertThat(log).anyMatch(l -> l.contains("\"status\":\"FAILED\""));
    }

    @Test
    void delete_leavesTheSchemaAndTheRegistry_andCallsNothing() throws Exception {
        send("Create", CONTENT);
        int before = standIn.calls().size();

        Map<String, Object> answer = send("Delete", CONTENT);

        assertThat(answer).containsEntry("Status", "SUCCESS");
        assertThat(standIn.calls()).hasSize(before);
        assertThat(standIn.content(REGISTRY, SCHEMA)).isEqualTo(CONTENT);
    }

    private Map<String, Object> send(String requestType, String content) throws Exception {
        return send(requestType, content, "Punctual test events");
    }

    /** One CloudFormation event through the handler's entry point; the answer the response URL received. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> send(String requestType, String content, String description) throws Exception {
        String id = "event-" + (++events);
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("ServiceToken", "arn:aws:lambda:eu-central-1:111111111111:function:test-events");
        properties.put("RegistryName", REGISTRY);
        properties.put("RegistryDescription", "Shareable test events of the Lambda console");
        properties.put("SchemaName", SCHEMA);
        properties.put("Type", "OpenApi3");
        properties.put("Description", description);
        properties.put("Content", content);
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("RequestType", requestType);
        event.put("ResponseURL", standIn.responseUrl(id));
        event.put("StackId", "arn:aws:cloudformation:eu-central-1:111111111111:stack/Punctual-dev/abc");
        event.put("RequestId", id);
        event.put("ResourceType", "Custom::PunctualTestEvents");
        event.put("LogicalResourceId", "ConsoleTestEventsSchemadefault");
        if (!"Create".equals(requestType)) {
            event.put("PhysicalResourceId", "schema/" + REGISTRY + "/" + SCHEMA);
        }
        event.put("ResourceProperties", properties);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(Json.write(event).getBytes(StandardCharsets.UTF_8)), out, null);
        String received = standIn.response(id);
        assertThat(received).as("the answer CloudFormation received").isNotNull();
        Map<String, Object> answer = (Map<String, Object>) Json.read(received);
        assertThat(answer)
                .containsEntry("RequestId", id)
                .containsEntry("LogicalResourceId", "ConsoleTestEventsSchemadefault")
                .containsEntry("StackId", event.get("StackId"));
        return answer;
    }
}
