package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.job.FunctionPool;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    @Test
    void pool_createsOneFunctionAliasLogGroupAndFailureQueue_wiredToTheTablesAndBusItIsGiven() throws IOException {
        Stack stack = new Stack(new App(), "Bare");
        StageConfig config = Stages.named("dev");
        LedgerTables tables = new LedgerTables(stack, "Tables", config);
        EventBus bus = new EventBus(stack, "Bus");
        Path jar = Files.createTempFile("punctual-bare", ".jar");
        FunctionPoolConstruct pool = new FunctionPoolConstruct(
                stack,
                "Pool",
                config,
                new FunctionPool("reports", 512, Duration.ofMinutes(2)),
                Code.fromAsset(jar.toString()),
                tables,
                bus);

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
                .contains(StageResources.DOMAIN_TABLE + "={Ref=" + Templates.logicalId(tables.domain()))
                .contains(StageResources.EVENT_BUS + "={Ref=" + Templates.logicalId(bus))
                .contains(StageFlags.DESTRUCTIVE_ENABLED + "=false");
        String policies = Templates.properties(template, "AWS::IAM::Policy").toString();
        assertThat(policies)
                .contains(Templates.logicalId(tables.ledger()), Templates.logicalId(tables.domain()))
                .contains("events:PutEvents", Templates.logicalId(bus))
                .contains("Resource=")
                .doesNotContainPattern("Resource=\\*[,}]")
                .doesNotContainPattern("Action=[a-z0-9]*:\\*[,}]");
        assertThat(Templates.properties(template, "AWS::Lambda::EventInvokeConfig")
                        .toString())
                .contains(Templates.logicalId(pool.failureQueue()));
    }
}
