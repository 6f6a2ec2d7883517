package dev.punctual.cli.verify;

import dev.punctual.handler.Wiring;
import dev.punctual.job.Job;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.job.JobLease;
import dev.punctual.job.JobServices;
import dev.punctual.job.SuppressedDelivery;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Sleeper;
import dev.punctual.ledger.Trigger;
import dev.punctual.ledger.dynamodb.DynamoDbRunLedger;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Catalogs;
import dev.punctual.runtime.LedgerHistory;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import dev.punctual.time.OccurrenceCalculator;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The dry-run counts ({@link Job#preview}) of the delivering and destructive jobs, for the latest
 * occurrence due now, computed here against the stage's own tables: the catalog is built as the
 * function builds it (the stage's flags and table names), with the suppressed delivery port and a lease
 * that ends in a minute. A preview reads and counts; it writes nothing and sends nothing (the job API's
 * contract), so this stays read-only.
 */
public final class JobPreviews {

    private static final Duration LEASE = Duration.ofMinutes(1);

    private JobPreviews() {}

    /** Each delivering or destructive job's preview (empty when the job cannot tell), or the error it gave. */
    public static Map<String, DryRunCountsCheck.Preview> read(
            StageAws aws,
            Optional<URI> dynamoEndpoint,
            StageInventory stage,
            StageFlags flags,
            JobCatalog definitions,
            Clock clock) {
        Map<String, String> env = new HashMap<>(flags.toEnvironment());
        env.putAll(new StageResources(stage.ledgerTable(), "punctual-" + stage.stage(), "verify").toEnvironment());
        env.putAll(definitions.tableEnvironment(stage.jobTables()));
        env.put("AWS_REGION", aws.region().id());
        dynamoEndpoint.ifPresent(endpoint -> env.put(Wiring.ENDPOINT, endpoint.toString()));
        JobCatalog catalog = Catalogs.load(new JobEnvironment(flags, env, clock));
        RunLedger ledger = DynamoDbRunLedger.create(
                aws.dynamo(),
                stage.ledgerTable(),
                clock,
                () -> UUID.randomUUID().toString(),
                Retention.DEFAULT,
                Sleeper.real());
        JobServices services = new JobServices(clock, catalog, new LedgerHistory(ledger));
        StructuredLog log =
                new StructuredLog(line -> {}, clock, "punctual-verify", dev.punctual.observability.Redactor.standard());
        Map<String, DryRunCountsCheck.Preview> previews = new LinkedHashMap<>();
        for (JobDefinition definition : definitions.jobs()) {
            if (definition.destructive() || definition.externalDelivery()) {
                previews.put(definition.id(), preview(catalog.require(definition.id()), services, flags, log, clock));
            }
        }
        return previews;
    }

    private static DryRunCountsCheck.Preview preview(
            JobDefinition definition, JobServices services, StageFlags flags, StructuredLog log, Clock clock) {
        Instant now = clock.instant();
        Optional<Instant> occurrence =
                OccurrenceCalculator.of(definition.schedule()).previous(now.plusMillis(1));
        if (occurrence.isEmpty()) {
            return DryRunCountsCheck.Preview.error("no occurrence due yet");
        }
        Instant at = occurrence.get();
        JobContext context = new JobContext(
                definition.id(),
                at,
                at.atZone(definition.schedule().zone()),
                Trigger.MANUAL,
                0,
                JobLease.until(now.plus(LEASE)),
                flags,
                new JobContext.JobLog(log, definition.id(), at),
                new SuppressedDelivery(flags.stage(), log),
                clock);
        try {
            Job job = definition.factory().apply(services);
            return job.preview(context)
                    .map(p -> DryRunCountsCheck.Preview.of(at, p))
                    .orElseGet(() -> DryRunCountsCheck.Preview.error("the job cannot tell (no preview)"));
        } catch (Exception e) {
            return DryRunCountsCheck.Preview.error(dev.punctual.observability.Redactor.standard()
                    .line(e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
    }
}
