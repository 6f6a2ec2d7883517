package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class LedgerTablesTest {

    private static Template dev;
    private static Template prod;

    @BeforeAll
    static void synth() {
        dev = Template.fromStack(Synth.stage("dev"));
        prod = Template.fromStack(Synth.stage("prod"));
    }

    @Test
    void ledger_inEveryStage_isOnDemandWithPointInTimeRecoveryAndTtlOnTheLedgerAttribute() {
        for (Template template : List.of(dev, prod)) {
            template.hasResourceProperties(
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
        Map<String, Map<String, Object>> tables = prod.findResources("AWS::DynamoDB::Table");

        assertThat(tables).hasSize(2).allSatisfy((id, table) -> {
            assertThat(table).containsEntry("DeletionPolicy", "Retain");
            assertThat(properties(table)).containsEntry("DeletionProtectionEnabled", true);
        });
    }

    @Test
    void tables_inDev_areRemovedWithTheStack() {
        Map<String, Map<String, Object>> tables = dev.findResources("AWS::DynamoDB::Table");

        assertThat(tables).hasSize(2).allSatisfy((id, table) -> {
            assertThat(table).containsEntry("DeletionPolicy", "Delete");
            assertThat(properties(table)).containsEntry("DeletionProtectionEnabled", false);
        });
    }

    @Test
    void domainTable_hasNoTtl() {
        dev.resourcePropertiesCountIs("AWS::DynamoDB::Table", Map.of("TimeToLiveSpecification", Match.absent()), 1);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(Map<String, Object> resource) {
        return (Map<String, Object>) resource.get("Properties");
    }
}
