package dev.punctual.cli.stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.cli.PunctualCli;
import dev.punctual.cli.input.OperatorInputException;
import dev.punctual.cli.output.ErrorReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/** Where a command's region comes from, in the AWS CLI's order: the option, the variables, the profile. */
class AwsRegionTest {

    @TempDir
    Path home;

    private Path config() throws IOException {
        return Files.writeString(home.resolve("config"), """
                [default]
                region = eu-west-1

                [profile ops]
                region = ap-northeast-2
                output = json

                [profile bare]
                output = json
                """);
    }

    private static AwsAccess with(Map<String, String> env) {
        return new AwsAccess(env, AnonymousCredentialsProvider.create(), Map.of());
    }

    @Test
    void awsProfile_withARegionInItsProfile_givesThatRegion() throws IOException {
        AwsAccess aws = with(Map.of("AWS_PROFILE", "ops", "AWS_CONFIG_FILE", config().toString()));

        assertThat(aws.region(null)).isEqualTo(Region.AP_NORTHEAST_2);
    }

    @Test
    void withoutAwsProfile_theDefaultProfilesRegion() throws IOException {
        assertThat(with(Map.of("AWS_CONFIG_FILE", config().toString())).region(null))
                .isEqualTo(Region.EU_WEST_1);
    }

    @Test
    void theOptionAndTheVariables_comeBeforeTheProfile() throws IOException {
        Map<String, String> env =
                Map.of("AWS_PROFILE", "ops", "AWS_CONFIG_FILE", config().toString(), "AWS_REGION", "us-west-2");

        assertThat(with(env).region(null)).isEqualTo(Region.US_WEST_2);
        assertThat(with(env).region("eu-central-1")).isEqualTo(Region.EU_CENTRAL_1);
    }

    @Test
    void aProfileWithoutARegion_isRefused_namingTheProfileAndWhatIsAccepted() throws IOException {
        AwsAccess aws = with(Map.of("AWS_PROFILE", "bare", "AWS_CONFIG_FILE", config().toString()));

        assertThatThrownBy(() -> aws.region(null))
                .isInstanceOf(OperatorInputException.class)
                .hasMessageStartingWith("--region: no region given, AWS_REGION is not set and profile bare names none;")
                .hasMessageContaining("accepted: e.g. --region eu-central-1");
    }

    @Test
    void noConfigFile_isRefusedTheSameWay() {
        AwsAccess aws = with(Map.of("AWS_CONFIG_FILE", home.resolve("missing").toString()));

        assertThatThrownBy(() -> aws.region(null)).hasMessageContaining("profile default names none");
    }

    @Test
    void aProfilesRegionThatIsNotARegionName_isRefused_likeAnyOther() throws IOException {
        Path bad = Files.writeString(home.resolve("bad"), "[default]\nregion = eu central\n");

        assertThatThrownBy(() -> with(Map.of("AWS_CONFIG_FILE", bad.toString())).region(null))
                .hasMessageContaining("region of profile default");
    }

    @Test
    void withProfile_takesThatProfilesRegion_overAwsProfile() throws IOException {
        AwsAccess aws = with(Map.of("AWS_PROFILE", "bare", "AWS_CONFIG_FILE", config().toString()))
                .withProfile("ops");

        assertThat(aws.region(null)).isEqualTo(Region.AP_NORTHEAST_2);
        assertThat(aws.env()).containsEntry("AWS_PROFILE", "ops");
    }

    @Test
    void withProfile_keepsATestsFixedCredentials_andGivesTheProcessChainTheProfile() {
        AwsAccess fixed = with(Map.of());
        AwsAccess process = new AwsAccess(
                Map.of(),
                software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider.builder()
                        .build(),
                Map.of());

        assertThat(fixed.withProfile("ops").credentials()).isSameAs(fixed.credentials());
        assertThat(process.withProfile("ops").credentials())
                .isNotSameAs(process.credentials())
                .isInstanceOf(software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider.class);
    }

    @Test
    void aProfileOptionThatIsNotAName_isRefused_beforeAnythingRuns() {
        java.io.StringWriter err = new java.io.StringWriter();

        int code = PunctualCli.execute(
                new java.io.PrintWriter(new java.io.StringWriter()),
                new java.io.PrintWriter(err),
                java.time.Clock.systemUTC(),
                "status",
                "--stage",
                "dev",
                "--profile",
                "ops; rm -rf /");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString()).startsWith("punctual status: --profile: 'ops; rm -rf /' is not a profile name;");
    }

    @Test
    void theProfileOption_isReadAsPicocliReadsIt_theLastOneWins() {
        assertThat(ErrorReport.optionValue("--profile", "status", "--profile", "a", "--profile=b"))
                .isEqualTo("b");
        assertThat(ErrorReport.optionValue("--profile", "status")).isNull();
    }
}
