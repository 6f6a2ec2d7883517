package dev.punctual.job;

import dev.punctual.ledger.RunLedger;
import java.time.Clock;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What the runtime gives a job factory: the shared SDK client (built once per container) and the names
 * of the stage's resources. Jobs are adapters, so they may use the SDK; the core does not.
 *
 * @param dynamo the DynamoDB client, explicit region and light HTTP client
 * @param domainTable the table the example jobs work on
 * @param clock the runtime's clock
 * @param ledger the run ledger, for system jobs that watch the others (read only by convention)
 * @param catalog the catalog the runtime runs, for the same
 */
public record JobServices(
        DynamoDbClient dynamo, String domainTable, Clock clock, RunLedger ledger, JobCatalog catalog) {}
