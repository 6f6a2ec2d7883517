package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;

/** Infrastructure failures are said so an operator can act: what was missing or unreachable, and a hint. */
class InfrastructureMessagesTest {

    @Test
    void missingCredentials_sayWhereTheyWereLookedFor_andHowToFixIt_withoutTheSdksChain() {
        String said = PunctualCli.infrastructure(SdkClientException.create(
                "Unable to load credentials from any of the providers in the chain AwsCredentialsProviderChain("
                        + "credentialsProviders=[SystemPropertyCredentialsProvider(), EnvironmentVariable...])"));

        assertThat(said)
                .startsWith("no AWS credentials found")
                .contains("AWS_PROFILE", "--endpoint")
                .doesNotContain("AwsCredentialsProviderChain", "SdkClientException");
    }

    @Test
    void deadEndpoint_isSaidAsUnreachable_withAHint_whenACommandRuns() {
        StringWriter err = new StringWriter();

        int code = PunctualCli.execute(
                new PrintWriter(new StringWriter()),
                new PrintWriter(err),
                Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC),
                "status",
                "--endpoint",
                "http://127.0.0.1:1");

        assertThat(code).isEqualTo(PunctualCli.FAILURE);
        assertThat(err.toString())
                .contains("could not reach the endpoint http://127.0.0.1:1 (", "punctual emulator")
                .doesNotContain("SdkClientException")
                .doesNotContain("\n\n");
    }
}
