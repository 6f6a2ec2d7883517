package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.job.JobTable;
import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.events.EventBus;
import software.amazon.awscdk.services.lambda.Code;

/**
 * One function pool on a bare stack, beside the tables and bus it is given: what the construct alone
 * creates and how it wires them (FunctionPoolTest checks the pools of a whole stage).
 */
class FunctionPoolConstructTest {

    private static final JobTable REPORTS = JobTable.builder("Reports")
            .environmentVariable("REPORTS_TABLE")
            .partitionKey("id", JobTable.AttributeType.STRING)
            .actions("dynamodb:PutItem", "dynamodb:Query")
            .build();

    /** Declared by a job of another pool: this pool's function gets neither its name nor any grant on it. */
    private static final JobTable MEMBERS = JobTable.builder("Members")
            .environmentVariable("MEMBERS_TABLE")
            .partitionKey("member", JobTable.AttributeType.STRING)
            .actions("dynamodb:DeleteItem")
            .build();

    @Test
    void pool_createsOneFunctionAliasLogGroupAndFailureQueue_wiredToTheTablesAndBusItIsGiven() throws IOException {
        Stack stack = new Stack(new App(), "Bare");
        StageConfig config = Stages.named("dev");
        LedgerTables tables = new LedgerTables(stack, "Tables", config, List.of(REPORTS, MEMBERS));
        EventBus bus = new EventBus(stack, "Bus");
        FunctionPoolConstruct pool = pool(stack, config, tables, List.of(REPORTS), bus);

        Template template = Template.fromStack(stack);

        template.resourceCountIs("AWS::Lambda::Function", 1);
        template.resourceCountIs("AWS::Lambda::Alias", 1);
        template.resourceCountIs("AWS::SQS::Queue", 1);
        template.resourceCountIs("AWS::Logs::LogGroup", 1);
        Map<String, Object> function = Templates.properties(template, "AWS::Lambda::Function")
                .values()
                .iterator()
                .next();
        assertThat(function).containsEntry("MemorySize", 512).containsEntry("Timeout", 120);
        String environment = function.get("Environment").toString();
        assertThat(environment)
                .contains(StageResources.POOL + "=reports")
                .contains(StageResources.LEDGER_TABLE + "={Ref=" + Templates.logicalId(tables.ledger()))
                .contains("REPORTS_TABLE={Ref=" + Templates.logicalId(tables.jobTable("Reports")))
                .doesNotContain("MEMBERS_TABLE", Templates.logicalId(tables.jobTable("Members")))
                .contains(StageResources.EVENT_BUS + "={Ref=" + Templates.logicalId(bus))
                .contains(StageFlags.DESTRUCTIVE_ENABLED + "=false");
        String policies = Templates.properties(template, "AWS::IAM::Policy").toString()
                + Templates.properties(template, "AWS::IAM::ManagedPolicy");
        assertThat(policies)
                .contains(Templates.logicalId(tables.ledger()), Templates.logicalId(tables.jobTable("Reports")))
                .doesNotContain(Templates.logicalId(tables.jobTable("Members")), "dynamodb:Scan")
                .contains("events:PutEvents", Templates.logicalId(bus))
                .contains("Resource=")
                .doesNotContainPattern("Resource=\\*[,}]")
                .doesNotContainPattern("Action=[a-z0-9]*:\\*[,}]");
        assertThat(Templates.properties(template, "AWS::Lambda::EventInvokeConfig")
                        .toString())
                .contains(Templates.logicalId(pool.failureQueue()));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aDeclaredTable_isGrantedExactlyItsDeclaredActions_onItsOwnArnOnly() throws IOException {
        Stack stack = new Stack(new App(), "Bare");
        StageConfig config = Stages.named("dev");
        LedgerTables tables = new LedgerTables(stack, "Tables", config, List.of(REPORTS, MEMBERS));
        pool(stack, config, tables, List.of(REPORTS), new EventBus(stack, "Bus"));

        Map<String, Object> policy = Templates.properties(Template.fromStack(stack), "AWS::IAM::Policy")
                .values()
                .iterator()
                .next();
        List<Map<String, Object>> statements =
                (List<Map<String, Object>>) ((Map<String, Object>) policy.get("PolicyDocument")).get("Statement");
        List<Map<String, Object>> onReports = statements.stream()
                .filter(s -> s.get("Resource").toString().contains(Templates.logicalId(tables.jobTable("Reports"))))
                .toList();

        assertThat(onReports).hasSize(1);
        assertThat(onReports.getFirst().get("Action")).isEqualTo(REPORTS.actions());
    }

    @Test
    void aDeclaredVariable_thatPunctualSetsItself_isRefused_namingTheTableAndField() throws IOException {
        Stack stack = new Stack(new App(), "Bare");
        StageConfig config = Stages.named("dev");
        JobTable clash = JobTable.builder("Clash")
                .environmentVariable(StageResources.POOL)
                .partitionKey("pk", JobTable.AttributeType.STRING)
                .actions("dynamodb:GetItem")
                .build();
        LedgerTables tables = new LedgerTables(stack, "Tables", config, List.of(clash));

        assertThatThrownBy(() -> pool(stack, config, tables, List.of(clash), new EventBus(stack, "Bus")))
                .isInstanceOf(StageConfigException.class)
                .hasMessageContaining("table Clash.environmentVariable: '" + StageResources.POOL + "' is not accepted")
                .hasMessageContaining("a variable Punctual does not set itself");
    }

    @Test
    void theLedgersGrants_areAManagedPolicyOfThePoolsRole_thatTheFunctionWaitsFor() throws IOException {
        Stack stack = new Stack(new App(), "Bare");
        StageConfig config = Stages.named("dev");
        LedgerTables tables = new LedgerTables(stack, "Tables", config, List.of(REPORTS));
        FunctionPoolConstruct pool = pool(stack, config, tables, List.of(REPORTS), new EventBus(stack, "Bus"));
        Template template = Template.fromStack(stack);
        String role = Templates.logicalId(pool.function().getRole());

        Map<String, Map<String, Object>> managed = Templates.properties(template, "AWS::IAM::ManagedPolicy");
        assertThat(managed).hasSize(1);
        assertThat(managed.values().iterator().next()).containsEntry("Roles", List.of(Map.of("Ref", role)));
        assertThat(managed.values().toString()).contains("run#nightly-report", "lock#nightly-report");
        assertThat(template.findResources("AWS::Lambda::Function")
                        .values()
                        .iterator()
                        .next()
                        .get("DependsOn")
                        .toString())
                .contains(managed.keySet().iterator().next());
    }

    private static FunctionPoolConstruct pool(
            Stack stack, StageConfig config, LedgerTables tables, List<JobTable> used, EventBus bus)
            throws IOException {
        Path jar = Files.createTempFile("punctual-bare", ".jar");
        FunctionPool reports = new FunctionPool("reports", 512, Duration.ofMinutes(2));
        JobCatalog catalog = JobCatalog.of(JobDefinition.builder("nightly-report")
                .schedule("0 2 * * *", "Europe/Berlin")
                .pool(reports)
                .job(services -> context -> JobResult.empty())
                .build());
        return new FunctionPoolConstruct(
                stack,
                "Pool",
                config,
                reports,
                Code.fromAsset(jar.toString()),
                tables,
                PoolLedgerKeys.of(catalog, reports.name()),
                used,
                bus);
    }
}
