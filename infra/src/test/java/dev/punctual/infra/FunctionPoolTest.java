package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.examples.ExampleCatalog;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

class FunctionPoolTest {

    private static Template dev;

    @BeforeAll
    static void synth() {
        dev = Template.fromStack(Synth.stage("dev"));
    }

    @Test
    void function_runsJava25OnArm64_withSnapStartOnPublishedVersions_andTheStageFlags() {
        dev.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "Runtime", "java25",
                        "Architectures", List.of("arm64"),
                        "Handler", FunctionPoolConstruct.HANDLER,
                        "SnapStart", Map.of("ApplyOn", "PublishedVersions"),
                        "Environment",
                                Map.of(
                                        "Variables",
                                        Match.objectLike(Map.of(
                                                "PUNCTUAL_STAGE", "dev",
                                                "PUNCTUAL_EXTERNAL_DELIVERY_ENABLED", "false",
                                                "PUNCTUAL_DESTRUCTIVE_ENABLED", "false",
                                                "PUNCTUAL_POOL", "default")))));
    }

    @Test
    void alias_live_pointsAtAPublishedVersion() {
        dev.hasResourceProperties(
                "AWS::Lambda::Alias",
                Map.of("Name", "live", "FunctionVersion", Match.objectLike(Map.of("Fn::GetAtt", Match.anyValue()))));
    }

    @Test
    void asyncInvoke_onTheAlias_retriesTwiceForAnHourThenSendsToAnSqsDestination() {
        Map<String, Map<String, Object>> configs = dev.findResources("AWS::Lambda::EventInvokeConfig");

        assertThat(configs).hasSize(ExampleCatalog.catalog().pools().size());
        assertThat(configs.values()).allSatisfy(config -> {
            String props = config.get("Properties").toString();
            assertThat(props).contains("MaximumRetryAttempts=2", "MaximumEventAgeInSeconds=3600");
            // The qualifier is the alias's name split out of its ARN: the alias's config, not $LATEST's.
            assertThat(props).containsPattern("Qualifier=\\{Fn::Select=\\[7, \\{Fn::Split=\\[:, \\{Ref=Pool\\w+Alias");
            assertThat(props).containsPattern("OnFailure=\\{Destination=\\{Fn::GetAtt=\\[Pool\\w+AsyncFailures");
        });
        assertThat(configs.values().toString()).contains("PooldefaultAlias", "PoolmaintenanceAlias");
        dev.hasResourceProperties(
                "AWS::SQS::Queue", Map.of("SqsManagedSseEnabled", true, "MessageRetentionPeriod", 1209600));
    }

    @Test
    void logGroup_keepsEventsForTheStagesRetention() {
        dev.hasResourceProperties("AWS::Logs::LogGroup", Map.of("RetentionInDays", 14));
    }

    @Test
    void role_allowsOnlyNamedActions_noWildcardActionAndNoManagedPolicy() {
        Map<String, Map<String, Object>> policies = dev.findResources("AWS::IAM::Policy");
        String rendered = policies.toString();

        assertThat(rendered)
                .contains("dynamodb:ConditionCheckItem", "dynamodb:UpdateItem", "events:PutEvents")
                .doesNotContain("dynamodb:*", "\"*\"", "dynamodb:Scan", "dynamodb:DeleteTable");
        dev.hasResourceProperties("AWS::IAM::Role", Map.of("ManagedPolicyArns", Match.absent()));
    }
}
