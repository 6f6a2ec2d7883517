package dev.punctual.ledger.dynamodb;

import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.spi.LedgerEngine;
import java.time.Clock;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The production ledger: the engine over DynamoDB. The handler builds the client once, outside the handler. */
public final class DynamoDbRunLedger {

    private DynamoDbRunLedger() {}

    /**
     * @param tokens a fresh owner token per call (e.g. {@code () -> UUID.randomUUID().toString()}); under
     *     SnapStart it must not be seeded at init
     */
    public static RunLedger create(
            DynamoDbClient dynamo,
            String table,
            Clock clock,
            Supplier<String> tokens,
            Retention retention,
            Sleeper sleeper) {
        return new LedgerEngine(new DynamoDbLedgerStore(dynamo, table), clock, tokens, retention, sleeper);
    }
}
