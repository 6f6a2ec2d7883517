package dev.punctual.longrun.stepfunctions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.longrun.LongExecutions;
import dev.punctual.testing.DynamoDbHarness;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.StateMachineType;

/**
 * Step Functions' name semantics as the adapter reads them, against moto's Step Functions (the same
 * server as the ledger's tests): the same name and input answer the same execution, another input or a
 * closed execution answer "already exists", which is never a new start.
 */
class StepFunctionsExecutionsTest {

    private static SfnClient client;
    private static StepFunctionsExecutions executions;
    private static final String JOB = "sfn-" + UUID.randomUUID().toString().substring(0, 8);

    @BeforeAll
    static void stateMachine() {
        client = SfnClient.builder()
                .endpointOverride(DynamoDbHarness.backend().endpoint())
                .region(DynamoDbHarness.REGION)
                .credentialsProvider(
                        StaticCredentialsProvider.create(AwsBasicCredentials.create("punctual-test", "punctual-test")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        String arn = client.createStateMachine(b -> b.name("punctual-test-" + JOB)
                        .type(StateMachineType.STANDARD)
                        .roleArn("arn:aws:iam::123456789012:role/punctual-test")
                        .definition("{\"StartAt\":\"Done\",\"States\":{\"Done\":{\"Type\":\"Pass\",\"End\":true}}}"))
                .stateMachineArn();
        executions = new StepFunctionsExecutions(client, arn.substring(0, arn.length() - JOB.length()));
    }

    @AfterAll
    static void close() {
        client.close();
    }

    @Test
    void a_resend_of_the_same_name_and_input_answers_the_same_execution() {
        String name = "same-" + UUID.randomUUID();
        LongExecutions.Start first = executions.start(JOB, name, "{\"claim\":{\"fence\":1}}");
        LongExecutions.Start again = executions.start(JOB, name, "{\"claim\":{\"fence\":1}}");

        assertThat(first).isInstanceOf(LongExecutions.Start.Started.class);
        assertThat(again).isInstanceOf(LongExecutions.Start.Started.class);
        assertThat(again.arn()).isEqualTo(first.arn()).isEqualTo(executions.arnOf(JOB, name));
        assertThat(client.listExecutions(b -> b.stateMachineArn(executions.stateMachineArn(JOB))).executions().stream()
                        .filter(e -> e.name().equals(name)))
                .hasSize(1);
    }

    @Test
    void another_input_under_the_same_name_is_already_exists_and_starts_nothing() {
        String name = "other-" + UUID.randomUUID();
        executions.start(JOB, name, "{\"claim\":{\"fence\":1}}");

        LongExecutions.Start second = executions.start(JOB, name, "{\"claim\":{\"fence\":2}}");

        assertThat(second).isInstanceOf(LongExecutions.Start.AlreadyExists.class);
        assertThat(second.arn()).isEqualTo(executions.arnOf(JOB, name));
        assertThat(executions.describe(JOB, name).orElseThrow().input()).contains("\"fence\":1");
    }

    @Test
    void a_stopped_execution_reads_back_aborted_and_its_name_cannot_start_again() {
        String name = "stopped-" + UUID.randomUUID();
        executions.start(JOB, name, "{}");

        assertThat(executions.stop(JOB, name, "cancelled by a test")).isTrue();
        assertThat(executions.stop(JOB, name, "again")).isFalse();
        assertThat(executions.describe(JOB, name).orElseThrow().status()).isEqualTo(LongExecutions.Status.ABORTED);
        assertThat(executions.start(JOB, name, "{}")).isInstanceOf(LongExecutions.Start.AlreadyExists.class);
    }

    @Test
    void an_execution_never_started_is_not_found() {
        assertThat(executions.describe(JOB, "never-" + UUID.randomUUID())).isEmpty();
        assertThat(executions.stop(JOB, "never-" + UUID.randomUUID(), "none")).isFalse();
    }
}
