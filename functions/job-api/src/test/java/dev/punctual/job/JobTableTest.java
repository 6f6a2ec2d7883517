package dev.punctual.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A catalog's table declarations: validated field by field, one declaration per name and variable. */
class JobTableTest {

    private static JobTable.Builder valid(String name) {
        return JobTable.builder(name)
                .environmentVariable(name.toUpperCase() + "_TABLE")
                .partitionKey("pk", JobTable.AttributeType.STRING)
                .sortKey("sk", JobTable.AttributeType.STRING)
                .actions("dynamodb:GetItem", "dynamodb:Query");
    }

    private static JobDefinition.Builder job(String id) {
        return JobDefinition.builder(id).schedule("0 6 * * *", "UTC").job(s -> ctx -> JobResult.empty());
    }

    @Test
    void aValidDeclaration_keepsItsFields_andHasNoTtlOrSortKeyUnlessGiven() {
        JobTable table = JobTable.builder("Audit")
                .environmentVariable("AUDIT_TABLE")
                .partitionKey("entry", JobTable.AttributeType.NUMBER)
                .actions("dynamodb:PutItem")
                .build();

        assertThat(table.sortKeyIfAny()).isEmpty();
        assertThat(table.ttlAttributeIfAny()).isEmpty();
        assertThat(table.partitionKey().type().code()).isEqualTo("N");
        assertThat(valid("Members").ttlAttribute("expires").build().ttlAttributeIfAny())
                .contains("expires");
    }

    @Test
    void eachBadField_isRefused_namingTheTableTheFieldAndWhatIsAccepted() {
        assertThatThrownBy(() -> valid("demo-table").build())
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("table demo-table: name 'demo-table' is not accepted; expected an upper-case");
        assertThatThrownBy(() -> valid("Demo").environmentVariable("AWS_TABLE").build())
                .hasMessageContaining("table Demo: environmentVariable 'AWS_TABLE' is not accepted")
                .hasMessageContaining("not AWS_");
        assertThatThrownBy(() -> valid("Demo").environmentVariable("demo_table").build())
                .hasMessageContaining("environmentVariable 'demo_table' is not accepted");
        assertThatThrownBy(() -> JobTable.builder("Demo")
                        .environmentVariable("DEMO_TABLE")
                        .actions("dynamodb:GetItem")
                        .build())
                .hasMessageContaining("table Demo: partitionKey '(none)' is not accepted");
        assertThatThrownBy(() -> valid("Demo")
                        .sortKey("pk", JobTable.AttributeType.STRING)
                        .build())
                .hasMessageContaining("table Demo: sortKey 'pk' is not accepted; expected an attribute other than");
        assertThatThrownBy(() -> valid("Demo").ttlAttribute("sk").build())
                .hasMessageContaining("table Demo: ttlAttribute 'sk' is not accepted");
        assertThatThrownBy(() -> valid("Demo").actions("dynamodb:*").build())
                .hasMessageContaining("table Demo: actions 'dynamodb:*' is not accepted; expected one of [dynamodb:");
        assertThatThrownBy(() -> valid("Demo").actions("dynamodb:DeleteTable").build())
                .hasMessageContaining("actions 'dynamodb:DeleteTable' is not accepted");
        assertThatThrownBy(() -> valid("Demo").actions("dynamodb:Query").build())
                .hasMessageContaining("actions '[dynamodb:GetItem, dynamodb:Query, dynamodb:Query]' is not accepted;"
                        + " expected each action once");
        assertThatThrownBy(() -> JobTable.builder("Demo")
                        .environmentVariable("DEMO_TABLE")
                        .partitionKey("pk", JobTable.AttributeType.STRING)
                        .build())
                .hasMessageContaining("table Demo: actions '[]' is not accepted; expected at least one of");
        assertThatThrownBy(() -> valid("Demo").partitionKey("", JobTable.AttributeType.STRING))
                .hasMessageContaining("key attribute name '' is not accepted");
    }

    @Test
    void aCatalog_listsItsTablesOnce_inFirstUseOrder_andEachPoolsOwn() {
        JobTable audit = valid("Audit").build();
        JobTable members = valid("Members").build();
        FunctionPool batch = new FunctionPool("batch", 1024, Duration.ofMinutes(5));
        JobCatalog catalog = JobCatalog.of(
                job("a").uses(audit).build(),
                job("b").uses(members, audit).pool(batch).build(),
                job("c").build());

        assertThat(catalog.tables()).containsExactly(audit, members);
        assertThat(catalog.tablesOf("default")).containsExactly(audit);
        assertThat(catalog.tablesOf("batch")).containsExactly(members, audit);
        assertThat(catalog.tableEnvironment(Map.of("Members", "punctual-dev-members")))
                .isEqualTo(Map.of("MEMBERS_TABLE", "punctual-dev-members"));
        assertThat(catalog.plus(List.of(job("d").build())).tables()).containsExactly(audit, members);
    }

    @Test
    void twoDeclarationsOfOneName_orOneVariableForTwoTables_areRefused() {
        JobTable audit = valid("Audit").build();
        JobTable otherAudit = valid("Audit").actions("dynamodb:PutItem").build();
        JobTable sameVariable = valid("Log").environmentVariable("AUDIT_TABLE").build();

        assertThatThrownBy(() -> JobCatalog.of(
                        job("a").uses(audit).build(), job("b").uses(otherAudit).build()))
                .hasMessageContaining("table 'Audit' used by job b is declared differently");
        assertThatThrownBy(() -> JobCatalog.of(
                        job("a").uses(audit).build(),
                        job("b").uses(sameVariable).build()))
                .hasMessageContaining("table 'Log' of job b: environmentVariable 'AUDIT_TABLE' is already the"
                        + " variable of table 'Audit'");
    }

    @Test
    void globalIndexes_declaredInOrder_keepThatOrderAndTheirKeys() {
        JobTable table = valid("Orders")
                .globalIndex("byCustomer", "customerId", JobTable.AttributeType.STRING)
                .globalIndex("bySku", "sku", JobTable.AttributeType.STRING, "pk", JobTable.AttributeType.STRING)
                .build();

        assertThat(table.indexes()).extracting(JobTable.Index::name).containsExactly("byCustomer", "bySku");
        assertThat(table.indexes().getFirst().sortKeyIfAny()).isEmpty();
        assertThat(table.indexes().get(1).keys()).extracting(JobTable.Key::name).containsExactly("sku", "pk");
        assertThat(valid("Plain").build().indexes()).isEmpty();
    }

    @Test
    void aBadIndex_isRefused_namingTheTableTheIndexAndWhatIsAccepted() {
        assertThatThrownBy(() -> valid("Orders").globalIndex("by", "customerId", JobTable.AttributeType.STRING))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("table Orders: index name 'by' is not accepted; expected 3-255 letters");
        assertThatThrownBy(() -> valid("Orders")
                        .globalIndex(
                                "byCustomer", "c", JobTable.AttributeType.STRING, "c", JobTable.AttributeType.STRING))
                .hasMessageContaining("table Orders: index byCustomer: sortKey 'c' is not accepted");
        assertThatThrownBy(() -> valid("Orders")
                        .globalIndex("byCustomer", "customerId", JobTable.AttributeType.STRING)
                        .globalIndex("byCustomer", "vendor", JobTable.AttributeType.STRING)
                        .build())
                .hasMessageContaining(
                        "table Orders: indexes 'byCustomer' is not accepted; expected each index name once");
        assertThatThrownBy(() -> valid("Orders")
                        .globalIndex("bySk", "sk", JobTable.AttributeType.NUMBER)
                        .build())
                .hasMessageContaining("table Orders: index bySk key sk 'NUMBER' is not accepted; expected STRING");
        assertThatThrownBy(() -> valid("Orders")
                        .ttlAttribute("expires")
                        .globalIndex("byExpiry", "expires", JobTable.AttributeType.NUMBER)
                        .build())
                .hasMessageContaining("table Orders: index byExpiry key 'expires' is not accepted;"
                        + " expected an attribute other than the TTL attribute expires");
    }

    @Test
    void build_withMoreIndexesThanDynamoDbsQuota_isRefusedNamingTheQuota() {
        JobTable.Builder builder = valid("Orders");
        for (int i = 0; i <= JobTable.MAX_INDEXES; i++) {
            builder.globalIndex("index" + i, "attribute" + i, JobTable.AttributeType.STRING);
        }

        assertThatThrownBy(builder::build)
                .hasMessageContaining("table Orders: indexes '21' is not accepted; expected at most 20");
    }
}
