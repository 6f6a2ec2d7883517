package dev.punctual.ledger.dynamodb;

import dev.punctual.testing.DynamoDbHarness;
import dev.punctual.testing.TestTables;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Ledger tables and clients on the test harness's DynamoDB. */
final class LedgerTables {

    private LedgerTables() {}

    static String create(Class<?> testClass) {
        String table = TestTables.uniqueName(testClass, "ledger");
        LedgerTable.create(DynamoDbHarness.client(), table);
        return table;
    }

    /** SDK retries off, so each injected fault reaches the ledger instead of being retried away. */
    static DynamoDbClient clientWith(ExecutionInterceptor interceptor) {
        return DynamoDbHarness.newClient(builder -> builder.overrideConfiguration(
                c -> c.addExecutionInterceptor(interceptor).retryStrategy(AwsRetryStrategy.doNotRetry())));
    }
}
