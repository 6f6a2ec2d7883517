package dev.punctual.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FunctionAccessCheckTest {

    private static final String ALIAS = "arn:aws:lambda:us-east-1:123456789012:function:f:live";
    private static final String ROLE = "arn:aws:iam::123456789012:role/Punctual-dev-SchedulerRolesPool";

    private static String policy(String statement) {
        return "{\"Version\":\"2012-10-17\",\"Id\":\"default\",\"Statement\":[" + statement + "]}";
    }

    @Test
    void aGrantToAnotherAccount_isNamedWithItsStatementPrincipalAndAction() {
        List<String> extras = FunctionAccessCheck.extraStatements(
                policy(
                        "{\"Sid\":\"partner\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"arn:aws:iam::999988887777:root\"},"
                                + "\"Action\":\"lambda:InvokeFunction\",\"Resource\":\"" + ALIAS + "\"}"),
                "f:live",
                Set.of(ROLE));

        assertThat(extras)
                .containsExactly(
                        ALIAS + ": statement partner lets arn:aws:iam::999988887777:root lambda:InvokeFunction");
    }

    @Test
    void aServicePrincipal_isNamedWithTheSourceItAllows() {
        List<String> extras = FunctionAccessCheck.extraStatements(
                policy("{\"Sid\":\"s3-trigger\",\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"s3.amazonaws.com\"},"
                        + "\"Action\":\"lambda:InvokeFunction\",\"Resource\":\"" + ALIAS + "\",\"Condition\":"
                        + "{\"ArnLike\":{\"AWS:SourceArn\":\"arn:aws:s3:::uploads\"}}}"),
                "f:live",
                Set.of(ROLE));

        assertThat(extras)
                .singleElement()
                .asString()
                .endsWith("lets s3.amazonaws.com lambda:InvokeFunction (from" + " arn:aws:s3:::uploads)");
    }

    @Test
    void aPublicUrlsStatement_isNamedAsAnyone() {
        List<String> extras = FunctionAccessCheck.extraStatements(
                policy("{\"Sid\":\"FunctionURLAllowPublicAccess\",\"Effect\":\"Allow\",\"Principal\":\"*\","
                        + "\"Action\":\"lambda:InvokeFunctionUrl\",\"Resource\":\"" + ALIAS + "\"}"),
                "f:live",
                Set.of(ROLE));

        assertThat(extras).singleElement().asString().contains("lets * lambda:InvokeFunctionUrl");
    }

    @Test
    void aGrantToTheSchedulesRole_isNotAnExtra() {
        assertThat(FunctionAccessCheck.extraStatements(
                        policy("{\"Sid\":\"scheduler\",\"Effect\":\"Allow\",\"Principal\":{\"AWS\":\"" + ROLE + "\"},"
                                + "\"Action\":\"lambda:InvokeFunction\",\"Resource\":\"" + ALIAS + "\"}"),
                        "f:live",
                        Set.of(ROLE)))
                .isEmpty();
    }

    @Test
    void aDenyStatement_isNotAWayIn() {
        assertThat(FunctionAccessCheck.extraStatements(
                        policy("{\"Sid\":\"deny\",\"Effect\":\"Deny\",\"Principal\":\"*\",\"Action\":\"lambda:*\"}"),
                        "f:live",
                        Set.of(ROLE)))
                .isEmpty();
    }

    @Test
    void noExtra_passes() {
        CheckResult r = new FunctionAccessCheck(2, List.of()).result();

        assertThat(r.status()).isEqualTo(CheckStatus.PASS);
        assertThat(r.seen()).isEqualTo("2 function(s): no other principal, no function URL, no event source mapping");
    }

    @Test
    void anExtra_failsNamingItAndHowToRemoveIt() {
        CheckResult r =
                new FunctionAccessCheck(2, List.of("f: function URL https://x.lambda-url.on.aws (auth NONE)")).result();

        assertThat(r.status()).isEqualTo(CheckStatus.FAIL);
        assertThat(r.seen()).isEqualTo("other ways in: f: function URL https://x.lambda-url.on.aws (auth NONE)");
        assertThat(r.action()).contains("delete-function-url-config").contains("operator policy");
    }

    @Test
    void noFunction_fails() {
        assertThat(new FunctionAccessCheck(0, List.of()).result().status()).isEqualTo(CheckStatus.FAIL);
    }

    @Test
    void eventBridgeFromTheStagesOwnLongRunRule_isNotAnExtra_butFromAnyOtherRuleItIs() {
        String own = "{\"Sid\":\"ended\",\"Effect\":\"Allow\",\"Principal\":{\"Service\":\"events.amazonaws.com\"},"
                + "\"Action\":\"lambda:InvokeFunction\",\"Resource\":\"" + ALIAS + "\",\"Condition\":{\"ArnLike\":"
                + "{\"AWS:SourceArn\":\"arn:aws:events:us-east-1:123456789012:rule/punctual-dev-long-ended-default\"}}}";
        String other = own.replace("punctual-dev-long-ended-default", "someone-elses-rule");
        String otherStage = own.replace("punctual-dev-long-ended-default", "punctual-prod-long-ended-default");

        assertThat(FunctionAccessCheck.extraStatements(policy(own), "f:live", Set.of(ROLE), "dev"))
                .isEmpty();
        assertThat(FunctionAccessCheck.extraStatements(policy(other), "f:live", Set.of(ROLE), "dev"))
                .singleElement()
                .asString()
                .contains("lets events.amazonaws.com");
        assertThat(FunctionAccessCheck.extraStatements(policy(otherStage), "f:live", Set.of(ROLE), "dev"))
                .singleElement()
                .asString()
                .contains("punctual-prod-long-ended-default");
    }
}
