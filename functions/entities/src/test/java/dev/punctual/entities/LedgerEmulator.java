package dev.punctual.entities;

import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.ledger.dynamodb.LedgerTable;
import java.time.Clock;
import java.util.UUID;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The stage's ledger table on the same moto server as {@link SchedulerEmulator}: one table per JVM, where
 * a delete writes the entity's tombstone and a put clears it. Loopback only, dummy credentials.
 */
final class LedgerEmulator {

    private static DynamoDbClient dynamo;
    private static String table;

    private LedgerEmulator() {}

    static synchronized DynamoDbClient dynamo() {
        if (dynamo == null) {
            dynamo = DynamoDbClient.builder()
                    .region(SchedulerEmulator.REGION)
                    .endpointOverride(SchedulerEmulator.endpoint())
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                    .httpClientBuilder(UrlConnectionHttpClient.builder())
                    .build();
            table = "punctual-entities-test-ledger-"
                    + UUID.randomUUID().toString().substring(0, 8);
            LedgerTable.create(dynamo, table);
        }
        return dynamo;
    }

    static synchronized String table() {
        dynamo();
        return table;
    }

    /** The ledger side as a team's service builds it, naming the test as the caller. */
    static EntityTombstones tombstones() {
        return tombstones(table());
    }

    static EntityTombstones tombstones(String onTable) {
        return EntityTombstones.onTable(dynamo(), onTable, CALLER);
    }

    /** The name every tombstone these tests write carries. */
    static final String CALLER = "entities-test";

    /** A table of one test's own, so what another test deleted is never seen. */
    static String freshTable() {
        String fresh =
                "punctual-entities-test-ledger-" + UUID.randomUUID().toString().substring(0, 8);
        LedgerTable.create(dynamo(), fresh);
        return fresh;
    }

    /** The ledger on that table, to read what the client wrote and to claim as the runtime does. */
    static RunLedger ledger(String onTable) {
        return DynamoDbRunLedger.create(
                dynamo(),
                onTable,
                Clock.systemUTC(),
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                Sleeper.real());
    }
}
