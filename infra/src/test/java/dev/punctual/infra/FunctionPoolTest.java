package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.stage.SkewTolerance;
import dev.punctual.stage.StageConfigException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Annotations;
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

        assertThat(configs).hasSize(Synth.CATALOG.pools().size());
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
    void role_allowsOnlyNamedActions_noWildcardActionAndNoAwsManagedPolicy() {
        Map<String, Map<String, Object>> policies = new LinkedHashMap<>(dev.findResources("AWS::IAM::Policy"));
        dev.findResources("AWS::IAM::ManagedPolicy").forEach((id, policy) -> {
            if (id.startsWith("Pool")) {
                policies.put(id, policy);
            }
        });
        String rendered = policies.toString();

        assertThat(rendered)
                .contains("dynamodb:UpdateItem", "dynamodb:LeadingKeys", "events:PutEvents")
                .doesNotContain(
                        "dynamodb:*", "\"*\"", "dynamodb:Scan", "dynamodb:DeleteTable", "dynamodb:ConditionCheckItem");
        dev.hasResourceProperties("AWS::IAM::Role", Map.of("ManagedPolicyArns", Match.absent()));
    }

    @Test
    void snapStartWarning_isAcknowledgedWithItsReason_soSynthPrintsNoWarning() {
        Annotations annotations = Annotations.fromStack(Synth.stage("dev"));

        assertThat(annotations.findWarning("*", Match.stringLikeRegexp(".*SnapStart.*")))
                .isEmpty();
    }

    @Test
    void pool_withReservedConcurrencyInTheStageConfig_reservesIt_othersDoNot() {
        StageConfig config = Stages.named("dev").reservingConcurrency("default", 25);
        Template template = Template.fromStack(Synth.stage(config, Synth.CATALOG));

        Map<String, Object> pool = Map.of("Handler", FunctionPoolConstruct.HANDLER);
        template.resourcePropertiesCountIs(
                "AWS::Lambda::Function",
                Map.of("Handler", FunctionPoolConstruct.HANDLER, "ReservedConcurrentExecutions", 25),
                1);
        template.resourcePropertiesCountIs(
                "AWS::Lambda::Function",
                Map.of("Handler", FunctionPoolConstruct.HANDLER, "ReservedConcurrentExecutions", Match.absent()),
                1);
        dev.resourcePropertiesCountIs(
                "AWS::Lambda::Function",
                Map.of("Handler", FunctionPoolConstruct.HANDLER, "ReservedConcurrentExecutions", Match.absent()),
                2);
        assertThat(dev.findResources("AWS::Lambda::Function", Map.of("Properties", pool)))
                .hasSize(2);
    }

    @Test
    void everyPool_carriesTheStagesSkewTolerance_2sByDefault_andTheConfiguredValueWhenSet() {
        Template five = Template.fromStack(
                Synth.stage(Stages.named("dev").withSkewTolerance(Duration.ofSeconds(5)), Synth.CATALOG));

        Map<String, Object> withDefault = Map.of(
                "Handler",
                FunctionPoolConstruct.HANDLER,
                "Environment",
                Map.of("Variables", Match.objectLike(Map.of(SkewTolerance.ENV, "2000"))));
        Map<String, Object> withFive = Map.of(
                "Handler",
                FunctionPoolConstruct.HANDLER,
                "Environment",
                Map.of("Variables", Match.objectLike(Map.of(SkewTolerance.ENV, "5000"))));
        dev.resourcePropertiesCountIs("AWS::Lambda::Function", withDefault, 2);
        five.resourcePropertiesCountIs("AWS::Lambda::Function", withFive, 2);
    }

    @Test
    void skewTolerance_outsideZeroToSixtySeconds_isRefusedNamingTheFieldAndTheRange() {
        assertThatThrownBy(() -> Stages.named("dev").withSkewTolerance(Duration.ofSeconds(61)))
                .isInstanceOf(StageConfigException.class)
                .hasMessage(
                        "skewTolerance: 'PT1M1S' is not accepted; expected between PT0S and PT1M (0 to 60 seconds)");
        assertThatThrownBy(() -> Stages.named("dev").withSkewTolerance(Duration.ofMillis(-1)))
                .hasMessageStartingWith("skewTolerance: 'PT-0.001S' is not accepted");
        assertThat(Stages.named("dev").withSkewTolerance(Duration.ZERO).skewTolerance())
                .isZero();
    }

    @Test
    void reservedConcurrency_forAPoolTheCatalogLacks_failsSynthNamingThePools() {
        StageConfig config = Stages.named("dev").reservingConcurrency("defualt", 25);

        assertThatThrownBy(() -> Synth.stage(config, Synth.CATALOG))
                .isInstanceOf(StageConfigException.class)
                .hasMessage("reservedConcurrency.defualt: 'defualt' is not accepted; expected a function pool of the"
                        + " catalog, one of [default, maintenance]");
    }

    @Test
    void reservedConcurrency_summingOverWhatTheAccountMayReserve_isRefusedWithTheTotal() {
        StageConfig half = Stages.named("dev").reservingConcurrency("default", 500);

        assertThatThrownBy(() -> half.reservingConcurrency("maintenance", 401))
                .hasMessageContaining("reservedConcurrency: '{default=500, maintenance=401}'")
                .hasMessageContaining("at most 900 in total");
    }

    @Test
    void reservedConcurrency_ofZero_isRefused_theKillSwitchIsSchedulesOff() {
        assertThatThrownBy(() -> Stages.named("dev").reservingConcurrency("default", 0))
                .hasMessage("reservedConcurrency.default: '0' is not accepted; expected a whole number from 1 to 900");
    }
}
