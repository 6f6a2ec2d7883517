package dev.punctual.cli.stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.punctual.cli.input.OperatorInputException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;

/**
 * With only the stage's operator policy, CloudFormation answers a named {@code DescribeStacks} but
 * refuses to list every stack (the policy names {@code Punctual-*} stacks). A stand-in speaking
 * CloudFormation's query protocol answers as IAM would, since moto does not enforce IAM.
 */
class StageDiscoveryAccessTest {

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private int listingStatus = 403;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void unknownStage_whenTheCredentialsMayNotListStacks_isRefusedSayingSo_insteadOfAnAccessDenied() {
        try (CloudFormationClient cloudFormation = client()) {
            assertThatThrownBy(() -> StageDiscovery.find(cloudFormation, "eu-central-1", "qa", List.of("default")))
                    .isInstanceOf(OperatorInputException.class)
                    .hasMessageContaining("--stage: 'qa' is not deployed in eu-central-1")
                    .hasMessageContaining("may describe Punctual-* stacks but not list all stacks");
        }
        assertThat(requests).containsExactly("DescribeStacks StackName=Punctual-qa", "DescribeStacks (all)");
    }

    @Test
    void unknownStage_whenListingFailsOtherwise_isNotHidden() {
        listingStatus = 500;
        try (CloudFormationClient cloudFormation = client()) {
            assertThatThrownBy(() -> StageDiscovery.find(cloudFormation, "eu-central-1", "qa", List.of("default")))
                    .isInstanceOf(CloudFormationException.class);
        }
    }

    private CloudFormationClient client() {
        return CloudFormationClient.builder()
                .endpointOverride(
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .region(Region.EU_CENTRAL_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .overrideConfiguration(c -> c.retryStrategy(b -> b.maxAttempts(1)))
                .build();
    }

    private void answer(HttpExchange exchange) throws IOException {
        String body = URLDecoder.decode(
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        boolean named = body.contains("StackName=");
        requests.add(named ? "DescribeStacks StackName=" + value(body, "StackName") : "DescribeStacks (all)");
        if (named) {
            reply(exchange, 400, "Sender", "ValidationError", "Stack with id Punctual-qa does not exist");
        } else if (listingStatus == 403) {
            reply(exchange, 403, "Sender", "AccessDenied", "User is not authorized to perform: DescribeStacks on *");
        } else {
            reply(exchange, listingStatus, "Receiver", "InternalFailure", "the stand-in fails");
        }
    }

    private static String value(String form, String key) {
        for (String pair : form.split("&")) {
            if (pair.startsWith(key + "=")) {
                return pair.substring(key.length() + 1);
            }
        }
        return "";
    }

    private static void reply(HttpExchange exchange, int status, String type, String code, String message)
            throws IOException {
        byte[] xml = ("<ErrorResponse xmlns=\"http://cloudformation.amazonaws.com/doc/2010-05-15/\"><Error><Type>"
                        + type + "</Type><Code>" + code + "</Code><Message>" + message
                        + "</Message></Error><RequestId>stand-in</RequestId></ErrorResponse>")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/xml");
        exchange.sendResponseHeaders(status, xml.length);
        exchange.getResponseBody().write(xml);
        exchange.close();
    }
}
