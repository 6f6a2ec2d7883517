package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.IFunction;
import software.amazon.awscdk.services.scheduler.ScheduleGroup;
import software.amazon.awscdk.services.sqs.Queue;

/**
 * The scheduler roles on a bare stack: one per pool, each assumable only by the scheduler for this
 * account's schedule group, each allowed to invoke its own pool's alias and to dead-letter, nothing else.
 */
class SchedulerRolesTest {

    private static final String DEFAULT_ALIAS = "arn:aws:lambda:eu-central-1:111111111111:function:pool-default:live";
    private static final String MAINTENANCE_ALIAS =
            "arn:aws:lambda:eu-central-1:111111111111:function:pool-maintenance:live";

    @Test
    void onePerPool_assumableByTheGroupsSchedulesOnly_invokingItsOwnAliasOnly() {
        Stack stack = new Stack(new App(), "Bare");
        ScheduleGroup group = ScheduleGroup.Builder.create(stack, "Group").build();
        Queue deadLetters = new Queue(stack, "DeadLetters");
        Map<String, IFunction> aliases = new TreeMap<>(Map.of(
                "default", Function.fromFunctionArn(stack, "Default", DEFAULT_ALIAS),
                "maintenance", Function.fromFunctionArn(stack, "Maintenance", MAINTENANCE_ALIAS)));
        SchedulerRoles roles = new SchedulerRoles(stack, "Roles", group, aliases, deadLetters);

        Template template = Template.fromStack(stack);
        Map<String, Map<String, Object>> policies = Templates.properties(template, "AWS::IAM::Policy");
        Map<String, Map<String, Object>> iamRoles = Templates.properties(template, "AWS::IAM::Role");

        assertThat(iamRoles).hasSize(2);
        assertThat(iamRoles.values())
                .allSatisfy(
                        role -> assertThat(role.get("AssumeRolePolicyDocument").toString())
                                .contains("scheduler.amazonaws.com", "aws:SourceArn", Templates.logicalId(group)));
        assertThat(policies).hasSize(2);
        String defaultPolicy = policyOf(policies, Templates.logicalId(roles.of("default")));
        assertThat(defaultPolicy)
                .contains("lambda:InvokeFunction", DEFAULT_ALIAS, "sqs:SendMessage", Templates.logicalId(deadLetters))
                .doesNotContain(MAINTENANCE_ALIAS);
        assertThat(policyOf(policies, Templates.logicalId(roles.of("maintenance"))))
                .contains(MAINTENANCE_ALIAS)
                .doesNotContain(DEFAULT_ALIAS);
    }

    private static String policyOf(Map<String, Map<String, Object>> policies, String roleId) {
        return policies.values().stream()
                .filter(p -> p.get("Roles").toString().contains(roleId))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no policy attached to " + roleId + " in " + policies))
                .get("PolicyDocument")
                .toString();
    }
}
