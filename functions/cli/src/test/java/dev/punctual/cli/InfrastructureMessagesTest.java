package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.reading.LogsCommand;
import dev.punctual.cli.reading.StatusCommand;
import dev.punctual.cli.stage.CliContext;
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
        String said = PunctualCli.infrastructure(NO_CREDENTIALS, null, true);

        assertThat(said)
                .startsWith("no AWS credentials found")
                .contains("AWS_PROFILE", "--endpoint")
                .doesNotContain("AwsCredentialsProviderChain", "SdkClientException");
    }

    @Test
    void aCommandWithoutAnEmulator_isNeverToldToUseEndpoint() {
        assertThat(PunctualCli.infrastructure(NO_CREDENTIALS, null, false))
                .startsWith("no AWS credentials found")
                .doesNotContain("--endpoint");
    }

    @Test
    void logsAndVerify_doNotOfferTheEmulator_runAndStatusDo() {
        picocli.CommandLine logs = new picocli.CommandLine(new LogsCommand(CliContext.withClock(Clock.systemUTC())));
        picocli.CommandLine verify =
                new picocli.CommandLine(new VerifyCommand(CliContext.withClock(Clock.systemUTC())));
        picocli.CommandLine status =
                new picocli.CommandLine(new StatusCommand(CliContext.withClock(Clock.systemUTC())));

        assertThat(PunctualCli.offersEmulator(logs)).isFalse();
        assertThat(PunctualCli.offersEmulator(verify)).isFalse();
        assertThat(PunctualCli.offersEmulator(status)).isTrue();
    }

    @Test
    void logsWithoutAStage_namesOnlyWhatLogsAccepts() {
        StringWriter err = new StringWriter();

        int code = PunctualCli.execute(
                new PrintWriter(new StringWriter()),
                new PrintWriter(err),
                Clock.fixed(Instant.parse("2026-11-30T14:00:02Z"), ZoneOffset.UTC),
                "logs");

        assertThat(code).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(err.toString()).contains("--stage: required").doesNotContain("--endpoint");
    }

    private static final SdkClientException NO_CREDENTIALS = SdkClientException.create(
            "Unable to load credentials from any of the providers in the chain AwsCredentialsProviderChain("
                    + "credentialsProviders=[SystemPropertyCredentialsProvider(), EnvironmentVariable...])");

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
