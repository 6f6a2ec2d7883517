package dev.punctual.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.punctual.local.MotoServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * The emulator does not grow with every transaction: moto deep-copies each table a TransactWriteItems
 * names, and its dashboard's tracking kept every copy alive (about 1.6 GB after 1,000 commits on a
 * 200-item table; 23 GB in a 10,000-occurrence replay). A resident size, not a time, is asserted.
 */
class MotoMemoryTest {

    private static final int ITEMS = 200;
    private static final int COMMITS = 600;

    /** Far below the 474 MB these commits reached with tracking on, above moto's ~90 MB at rest. */
    private static final long MAX_RESIDENT_MB = 150;

    @Test
    void sixHundredCommitsOnATwoHundredItemTable_leaveTheServerNearItsSizeAtRest() throws IOException {
        MotoServer server = MotoServer.start();
        Path status = Path.of("/proc", Long.toString(server.pid()), "status");
        try (DynamoDbClient dynamo = DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(DynamoDbHarness.REGION)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "x")))
                .build()) {
            assumeTrue(Files.exists(status), "no /proc on this system: the resident size cannot be read");
            dynamo.createTable(b -> b.tableName("memory")
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .keySchema(KeySchemaElement.builder()
                            .attributeName("pk")
                            .keyType(KeyType.HASH)
                            .build())
                    .attributeDefinitions(AttributeDefinition.builder()
                            .attributeName("pk")
                            .attributeType(ScalarAttributeType.S)
                            .build()));
            for (int i = 0; i < ITEMS; i++) {
                Map<String, AttributeValue> stored = item("item-" + i, "x".repeat(500));
                dynamo.putItem(b -> b.tableName("memory").item(stored));
            }
            for (int n = 0; n < COMMITS; n++) {
                String run = "run-" + n;
                String count = Integer.toString(n);
                dynamo.transactWriteItems(t -> t.transactItems(List.of(
                        software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder()
                                .put(p -> p.tableName("memory").item(item(run, "y".repeat(200))))
                                .build(),
                        software.amazon.awssdk.services.dynamodb.model.TransactWriteItem.builder()
                                .update(u -> u.tableName("memory")
                                        .key(Map.of("pk", AttributeValue.fromS("item-1")))
                                        .updateExpression("SET c = :c")
                                        .expressionAttributeValues(Map.of(":c", AttributeValue.fromN(count))))
                                .build())));
            }

            assertThat(residentMegabytes(status))
                    .as("the emulator's resident size after %d commits", COMMITS)
                    .isLessThan(MAX_RESIDENT_MB);
        } finally {
            server.stop();
        }
    }

    private static Map<String, AttributeValue> item(String pk, String value) {
        return Map.of("pk", AttributeValue.fromS(pk), "v", AttributeValue.fromS(value));
    }

    private static long residentMegabytes(Path status) throws IOException {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
            }
        }
        throw new IllegalStateException("no VmRSS in " + status);
    }
}
