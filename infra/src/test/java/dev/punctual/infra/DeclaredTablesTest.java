package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.fixtures.FixtureCatalog;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobTable;
import dev.punctual.stage.StageOutputs;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * Tables are the catalog's declarations (decision 0021): a whole stage creates each declared table,
 * gives the functions of the pools whose jobs use it its name and its declared actions, and outputs it;
 * a catalog that declares none gets the ledger alone.
 */
class DeclaredTablesTest {

    /**
     * The demo table's logical id in every stage deployed before tables were declared (recorded from the
     * dev template then): Punctual's own dev stage deploys the examples' table of that name, and keeping
     * the id is what keeps CloudFormation from replacing it.
     */
    private static final String DEMO_TABLE_LOGICAL_ID = "TablesDemoDomainA54D0B92";

    private static final JobTable AUDIT = JobTable.builder("Audit")
            .environmentVariable("AUDIT_TABLE")
            .partitionKey("entry", JobTable.AttributeType.STRING)
            .ttlAttribute("expires")
            .actions("dynamodb:PutItem")
            .build();

    @Test
    void theStage_createsTheCatalogsTable_andEveryPoolReadsItsNameFromTheDeclaredVariable() {
        StageStack dev = Synth.stage("dev");
        Template template = Template.fromStack(dev);
        JobTable records = FixtureCatalog.RECORDS;
        String logicalId = Templates.logicalId(dev.tables().jobTable(records.name()));

        assertThat(Synth.CATALOG.tables()).containsExactly(records);
        assertThat(logicalId).startsWith("Tables" + records.name());
        template.resourceCountIs("AWS::DynamoDB::Table", 2);
        for (FunctionPoolConstruct pool : dev.pools().values()) {
            Map<String, Object> variables = Templates.variables(template, pool);
            assertThat(variables)
                    .as(pool.getNode().getId())
                    .containsEntry(records.environmentVariable(), Templates.ref(logicalId));
        }
        assertThat(template.findOutputs(StageOutputs.jobTable(records.name())).values())
                .singleElement()
                .satisfies(o -> assertThat(o.get("Value")).isEqualTo(Templates.ref(logicalId)));
    }

    /** The logical id depends on the table's name alone: not on its keys, its jobs or the catalog's other tables. */
    @Test
    void aDeclaredTablesLogicalId_dependsOnItsNameAlone_soTheDemoTableKeepsTheIdItWasDeployedWith() {
        JobTable demo = JobTable.builder("DemoDomain")
                .environmentVariable("SOME_TABLE")
                .partitionKey("id", JobTable.AttributeType.NUMBER)
                .actions("dynamodb:GetItem")
                .build();
        StageStack alone = Synth.stage(
                Stages.named("dev"), JobCatalog.of(job("one").uses(demo).build()));
        FunctionPool batch = new FunctionPool("batch", 1024, Duration.ofMinutes(5));
        StageStack amongOthers = Synth.stage(
                Stages.named("dev"),
                JobCatalog.of(
                        job("audited").uses(AUDIT).pool(batch).build(),
                        job("other").uses(FixtureCatalog.RECORDS, demo).build()));

        assertThat(Templates.logicalId(alone.tables().jobTable("DemoDomain"))).isEqualTo(DEMO_TABLE_LOGICAL_ID);
        assertThat(Templates.logicalId(amongOthers.tables().jobTable("DemoDomain")))
                .isEqualTo(DEMO_TABLE_LOGICAL_ID);
    }

    @Test
    void aTableUsedByOnePoolsJobs_isGrantedToThatPoolOnly_andACatalogWithoutTablesGetsTheLedgerAlone() {
        FunctionPool batch = new FunctionPool("batch", 1024, Duration.ofMinutes(5));
        JobCatalog catalog = JobCatalog.of(
                job("plain").build(), job("audited").uses(AUDIT).pool(batch).build());
        StageStack stage = Synth.stage(Stages.named("dev"), catalog);
        Template template = Template.fromStack(stage);
        String audit = Templates.logicalId(stage.tables().jobTable("Audit"));

        template.resourceCountIs("AWS::DynamoDB::Table", 2);
        assertThat(Templates.variables(template, stage.pools().get("batch")))
                .containsEntry("AUDIT_TABLE", Templates.ref(audit));
        assertThat(Templates.variables(template, stage.pools().get("default"))).doesNotContainKey("AUDIT_TABLE");
        assertThat(Templates.policyOf(template, stage.pools().get("default"))).doesNotContain(audit);
        assertThat(Templates.policyOf(template, stage.pools().get("batch"))).contains(audit, "dynamodb:PutItem");

        StageStack bare =
                Synth.stage(Stages.named("dev"), JobCatalog.of(job("plain").build()));
        Template none = Template.fromStack(bare);
        none.resourceCountIs("AWS::DynamoDB::Table", 1);
        assertThat(none.findOutputs("*").keySet()).noneMatch(k -> k.startsWith(StageOutputs.JOB_TABLE_PREFIX));
    }

    @Test
    void aTableWithGlobalIndexes_isCreatedWithThem_andOnlyItsQueryGrantCoversTheIndexes_butAGetItemGrantDoesNot() {
        JobTable byCustomer = JobTable.builder("Orders")
                .environmentVariable("ORDERS_TABLE")
                .partitionKey("orderId", JobTable.AttributeType.STRING)
                .globalIndex(
                        "byCustomer",
                        "customerId",
                        JobTable.AttributeType.STRING,
                        "placedAt",
                        JobTable.AttributeType.NUMBER)
                .globalIndex(
                        "byOrder", "placedAt", JobTable.AttributeType.NUMBER, "orderId", JobTable.AttributeType.STRING)
                .actions("dynamodb:PutItem", "dynamodb:Query")
                .build();
        JobTable lookedUp = JobTable.builder("Prices")
                .environmentVariable("PRICES_TABLE")
                .partitionKey("sku", JobTable.AttributeType.STRING)
                .globalIndex("byVendor", "vendor", JobTable.AttributeType.STRING)
                .actions("dynamodb:GetItem")
                .build();
        FunctionPool batch = new FunctionPool("batch", 1024, Duration.ofMinutes(5));
        StageStack stage = Synth.stage(
                Stages.named("dev"),
                JobCatalog.of(
                        job("orders").uses(byCustomer).pool(batch).build(),
                        job("prices").uses(lookedUp).build()));
        Template template = Template.fromStack(stage);
        String orders = Templates.logicalId(stage.tables().jobTable("Orders"));

        Map<String, Object> table =
                Templates.properties(template, "AWS::DynamoDB::Table").get(orders);
        assertThat(table.get("GlobalSecondaryIndexes").toString())
                .contains("IndexName=byCustomer", "AttributeName=customerId", "KeyType=HASH")
                .contains("AttributeName=placedAt", "KeyType=RANGE", "ProjectionType=ALL");
        // Keys shared by the table and its indexes are defined once each, as DynamoDB requires.
        assertThat(table.get("AttributeDefinitions").toString().split("AttributeName="))
                .hasSize(1 + 3)
                .anySatisfy(d -> assertThat(d).startsWith("placedAt, AttributeType=N"));
        String batchPolicy = Templates.policyOf(template, stage.pools().get("batch"));
        assertThat(batchPolicy)
                .contains(orders, "/index/byCustomer", "/index/byOrder")
                .doesNotContain("/index/*");
        // Only Query (of the declared actions, the one an index authorises) is granted on the indexes.
        assertThat(batchPolicy.split("Action="))
                .anySatisfy(statement -> assertThat(statement)
                        .startsWith("dynamodb:Query")
                        .contains("/index/byCustomer")
                        .doesNotContain("PutItem"));
        assertThat(Templates.policyOf(template, stage.pools().get("default")))
                .as("GetItem is never authorised on an index, so no index is granted for it")
                .doesNotContain("/index/");
    }

    private static JobDefinition.Builder job(String id) {
        return JobDefinition.builder(id).schedule("0 6 * * *", "Europe/Berlin").job(s -> ctx -> JobResult.empty());
    }
}
