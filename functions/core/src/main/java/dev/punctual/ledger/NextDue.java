package dev.punctual.ledger;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * What a per-entity occurrence's completion notes for the due watch (decision 0031): the entity's next
 * nominal occurrence after the one completed, computed by the runtime from the schedule the delivery
 * carries, or none (a one-time {@code at()} that is done), which takes the entity out of the index.
 */
public record NextDue(Optional<Instant> at) {

    public NextDue {
        at = Objects.requireNonNull(at, "at").map(t -> t.truncatedTo(ChronoUnit.MILLIS));
    }

    public static NextDue at(Instant next) {
        return new NextDue(Optional.of(next));
    }

    /** The entity's schedule has no occurrence after this one. */
    public static NextDue none() {
        return new NextDue(Optional.empty());
    }
}
