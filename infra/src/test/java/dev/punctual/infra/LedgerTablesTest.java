package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.job.JobTable;
import dev.punctual.ledger.ClaimRequest;
import dev.punctual.ledger.ClaimResult;
import dev.punctual.ledger.CompletionResult;
import dev.punctual.ledger.Outcome;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.stage.StageConfigException;
import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;

/**
 * The tables construct on a bare stack (the ledger and two declared tables), and its ledger's shape
 * exercised by the ledger adapter itself.
 */
class LedgerTablesTest {

    /** Like the examples' demo table: pk/sk strings, no TTL. */
    private static final JobTable DOMAIN = JobTable.builder("Domain")
            .environmentVariable("DOMAIN_TABLE")
            .partitionKey("pk", JobTable.AttributeType.STRING)
            .sortKey("sk", JobTable.AttributeType.STRING)
            .actions("dynamodb:GetItem")
            .build();

    /** A number hash key, no range key, TTL on its own attribute. */
    private static final JobTable SESSIONS = JobTable.builder("Sessions")
            .environmentVariable("SESSIONS_TABLE")
            .partitionKey("user", JobTable.AttributeType.NUMBER)
            .ttlAttribute("expiresAt")
            .actions("dynamodb:DeleteItem", "dynamodb:Query")
            .build();

    private static Template bare(String stage) {
        Stack stack = new Stack(new App(), "Bare");
        new LedgerTables(stack, "Tables", Stages.named(stage), List.of(DOMAIN, SESSIONS));
        return Template.fromStack(stack);
    }

    @Test
    void ledger_inEveryStage_isOnDemandWithPointInTimeRecoveryAndTtlOnTheLedgerAttribute() {
        for (String stage : List.of("dev", "prod")) {
            bare(stage)
                    .hasResourceProperties(
                            "AWS::DynamoDB::Table",
                            Map.of(
                                    "BillingMode", "PAY_PER_REQUEST",
                                    "KeySchema",
                                            List.of(
                                                    Map.of("AttributeName", "pk", "KeyType", "HASH"),
                                                    Map.of("AttributeName", "sk", "KeyType", "RANGE")),
                                    "PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true),
                                    "TimeToLiveSpecification", Map.of("AttributeName", "ttl", "Enabled", true)));
        }
    }

    @Test
    void tables_inProd_areRetainedAndDeletionProtected() {
        Map<String, Map<String, Object>> tables = bare("prod").findResources("AWS::DynamoDB::Table");

        assertThat(tables).hasSize(3).allSatisfy((id, table) -> {
            assertThat(table).containsEntry("DeletionPolicy", "Retain");
            assertThat(properties(table)).containsEntry("DeletionProtectionEnabled", true);
        });
    }

    @Test
    void tables_inDev_areRemovedWithTheStack() {
        Map<String, Map<String, Object>> tables = bare("dev").findResources("AWS::DynamoDB::Table");

        assertThat(tables).hasSize(3).allSatisfy((id, table) -> {
            assertThat(table).containsEntry("DeletionPolicy", "Delete");
            assertThat(properties(table)).containsEntry("DeletionProtectionEnabled", false);
        });
    }

    @Test
    void declaredTables_haveTheirDeclaredKeysAndTtl_andTheLedgersSettings_underTheirDeclaredNames() {
        Template template = bare("dev");

        template.resourcePropertiesCountIs(
                "AWS::DynamoDB::Table", Map.of("TimeToLiveSpecification", Match.absent()), 1);
        template.hasResourceProperties(
                "AWS::DynamoDB::Table",
                Map.of(
                        "KeySchema", List.of(Map.of("AttributeName", "user", "KeyType", "HASH")),
                        "AttributeDefinitions", List.of(Map.of("AttributeName", "user", "AttributeType", "N")),
                        "TimeToLiveSpecification", Map.of("AttributeName", "expiresAt", "Enabled", true),
                        "BillingMode", "PAY_PER_REQUEST",
                        "SSESpecification", Map.of("SSEEnabled", true),
                        "PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true)));
        assertThat(template.findResources("AWS::DynamoDB::Table").keySet())
                .anyMatch(id -> id.startsWith("TablesLedger"))
                .anyMatch(id -> id.startsWith("TablesDomain"))
                .anyMatch(id -> id.startsWith("TablesSessions"));
    }

    @Test
    void aDeclaredTableNamedLedger_isRefused_namingTheField() {
        JobTable ledger = JobTable.builder("Ledger")
                .environmentVariable("MY_LEDGER")
                .partitionKey("pk", JobTable.AttributeType.STRING)
                .actions("dynamodb:GetItem")
                .build();

        assertThatThrownBy(() ->
                        new LedgerTables(new Stack(new App(), "Bare"), "Tables", Stages.named("dev"), List.of(ledger)))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining("table Ledger.name: 'Ledger' is not accepted");
    }

    /**
     * The contract between the two modules: a table created on the emulator exactly as the template
     * declares it (key schema, attribute types, TTL attribute) carries a full run through the
     * handler's ledger adapter, and the run item gets its TTL in the declared attribute.
     */
    @Test
    @SuppressWarnings("unchecked")
    void ledgerTable_createdAsTheTemplateDeclaresIt_carriesARunThroughTheLedgerAdapter() {
        Map<String, Object> declared = properties(bare("dev")
                .findResources(
                        "AWS::DynamoDB::Table",
                        Map.of(
                                "Properties",
                                Map.of(
                                        "TimeToLiveSpecification",
                                        Map.of("AttributeName", LedgerTables.TTL_ATTRIBUTE, "Enabled", true))))
                .values()
                .iterator()
                .next());
        DynamoDbClient dynamo = DynamoDbHarness.client();
        String table = TestTables.uniqueName(LedgerTablesTest.class, "declared");
        dynamo.createTable(b -> b.tableName(table)
                .billingMode(BillingMode.fromValue((String) declared.get("BillingMode")))
                .keySchema(((List<Map<String, String>>) declared.get("KeySchema"))
                        .stream()
                                .map(k -> KeySchemaElement.builder()
                                        .attributeName(k.get("AttributeName"))
                                        .keyType(k.get("KeyType"))
                                        .build())
                                .toList())
                .attributeDefinitions(((List<Map<String, String>>) declared.get("AttributeDefinitions"))
                        .stream()
                                .map(a -> AttributeDefinition.builder()
                                        .attributeName(a.get("AttributeName"))
                                        .attributeType(a.get("AttributeType"))
                                        .build())
                                .toList()));
        String ttl = (String) ((Map<String, Object>) declared.get("TimeToLiveSpecification")).get("AttributeName");
        dynamo.updateTimeToLive(b -> b.tableName(table)
                .timeToLiveSpecification(t -> t.attributeName(ttl).enabled(true)));
        Instant now = Instant.parse("2026-11-30T14:00:05Z");
        RunLedger ledger = DynamoDbRunLedger.create(
                dynamo,
                table,
                Clock.fixed(now, ZoneOffset.UTC),
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                d -> {});
        RunKey key = new RunKey("report", Instant.parse("2026-11-30T14:00:00Z"));

        ClaimResult claim = ledger.claim(ClaimRequest.scheduled(key, 1, 3, now.plus(Duration.ofMinutes(5))));
        CompletionResult done = ledger.complete(((ClaimResult.Claimed) claim).claim(), new Outcome.Succeeded("3 rows"));

        assertThat(done).isInstanceOf(CompletionResult.Completed.class);
        assertThat(ledger.run(key))
                .hasValueSatisfying(r -> assertThat(r.status()).isEqualTo(RunStatus.SUCCEEDED));
        assertThat(dynamo.scan(b -> b.tableName(table)).items())
                .anySatisfy(item -> assertThat(item).containsKey(ttl));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(Map<String, Object> resource) {
        return (Map<String, Object>) resource.get("Properties");
    }
}
