package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.fixtures.FixtureCatalog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Clock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code punctual emulator}: the tests' moto, its endpoint printed, stopped when told. */
class EmulatorCommandTest {

    @Test
    void emulator_printsItsEndpointAndHowToUseIt_andStopsByItselfWhenGivenATime() throws Exception {
        StringWriter out = new StringWriter();
        int code = PunctualCli.execute(
                new PrintWriter(out),
                new PrintWriter(new StringWriter()),
                Clock.systemUTC(),
                "emulator",
                "--for",
                "3s");

        assertThat(code).isZero();
        Matcher endpoint =
                Pattern.compile("emulator: (http://127\\.0\\.0\\.1:\\d+) ").matcher(out.toString());
        assertThat(endpoint.find()).as(out.toString()).isTrue();
        assertThat(out.toString())
                .contains("--endpoint " + endpoint.group(1), "stop:     Ctrl-C")
                .as("the run line names the first job of the catalog the CLI loaded")
                .contains("bin/punctual run " + FixtureCatalog.DAILY + " --endpoint " + endpoint.group(1))
                .endsWith("emulator: stopped after 3s" + System.lineSeparator());
        // Stopped: the endpoint no longer answers.
        try (DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create(endpoint.group(1)))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(
                        c -> c.retryStrategy(software.amazon.awssdk.awscore.retry.AwsRetryStrategy.doNotRetry()))
                .build()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(client::listTables)
                    .hasMessageContaining("Unable to execute HTTP request");
        }
    }
}
