package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.assertions.Template;

/**
 * One stage deployed to two regions of one account: every name the stage sets explicitly on a resource
 * whose names are unique per account (not per region) differs between the two, so the second deploy
 * does not collide with the first. A resource left unnamed gets a unique generated name from
 * CloudFormation and is fine in any region.
 *
 * <p>Account-wide names, by the services' documentation: CloudWatch dashboards ("All dashboards in your
 * account are global, not region-specific", AWS::CloudWatch::Dashboard), IAM roles, managed policies,
 * users, groups and instance profiles (IAM is global), S3 buckets (global across accounts). Everything
 * else the stage names is regional: the event bus, the schedule group and schedules, Contributor
 * Insights rules, saved queries, alarms, the Schemas registry (ARNs carry the region). An inline IAM
 * policy's name is scoped to its role, and the stage's roles are unnamed.
 */
class AccountGlobalNamesTest {

    /** Resource types whose names are account-wide, and the property that names them. */
    static final Map<String, String> ACCOUNT_WIDE = Map.of(
            "AWS::CloudWatch::Dashboard", "DashboardName",
            "AWS::IAM::Role", "RoleName",
            "AWS::IAM::ManagedPolicy", "ManagedPolicyName",
            "AWS::IAM::User", "UserName",
            "AWS::IAM::Group", "GroupName",
            "AWS::IAM::InstanceProfile", "InstanceProfileName",
            "AWS::S3::Bucket", "BucketName");

    private static List<String> frankfurt;
    private static List<String> virginia;

    @BeforeAll
    static void synth() {
        frankfurt = accountWideNames(pinned("eu-central-1"));
        virginia = accountWideNames(pinned("us-east-1"));
    }

    @Test
    void sameStageInTwoRegionsOfOneAccount_setsNoAccountWideNameTwice() {
        assertThat(frankfurt).as("the dashboard at least is named").isNotEmpty();
        assertThat(virginia).hasSameSizeAs(frankfurt).doesNotContainAnyElementsOf(frankfurt);
    }

    @Test
    void dashboard_namesStageAndRegion() {
        assertThat(frankfurt).contains("punctual-dev-eu-central-1");
        assertThat(virginia).contains("punctual-dev-us-east-1");
    }

    private static StageStack pinned(String region) {
        return Synth.fromContext(Map.of("stage", "dev", "account", "111111111111", "region", region));
    }

    /** Every explicit account-wide name in the stage stack and its nested jobs stacks. */
    private static List<String> accountWideNames(StageStack stage) {
        List<Template> templates = new ArrayList<>();
        templates.add(Template.fromStack(stage));
        stage.jobStacks().forEach(jobs -> templates.add(Template.fromStack(jobs)));
        List<String> names = new ArrayList<>();
        for (Template template : templates) {
            ACCOUNT_WIDE.forEach((type, property) -> Templates.properties(template, type).values().stream()
                    .filter(p -> p != null && p.get(property) != null)
                    .forEach(p -> names.add(String.valueOf(p.get(property)))));
        }
        return List.copyOf(new TreeSet<>(names));
    }
}
