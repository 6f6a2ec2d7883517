package dev.punctual.ledger;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * How long run records are kept per outcome, turned into the DynamoDB TTL attribute. Failures live
 * longer because they are what people come back to investigate.
 */
public record Retention(Duration succeeded, Duration failed, Duration skipped, Duration missed) {

    public static final Retention DEFAULT =
            new Retention(Duration.ofDays(35), Duration.ofDays(180), Duration.ofDays(35), Duration.ofDays(180));

    public Instant expiryOf(RunStatus status, Instant from) {
        // TTL is stored in epoch seconds, so the expiry is whole seconds here too.
        return from.truncatedTo(ChronoUnit.SECONDS)
                .plus(
                        switch (status) {
                            case SUCCEEDED -> succeeded;
                            case SKIPPED -> skipped;
                            case MISSED -> missed;
                            // Running items get the failure retention: if the run is abandoned the item must outlive
                            // the investigation, and a completion rewrites it anyway.
                            case RUNNING, FAILED, ABANDONED -> failed;
                        });
    }
}
