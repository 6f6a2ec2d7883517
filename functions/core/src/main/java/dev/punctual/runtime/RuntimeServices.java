package dev.punctual.runtime;

import dev.punctual.events.LifecyclePublisher;
import dev.punctual.job.Delivery;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobServices;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.Sleeper;
import dev.punctual.stage.StageFlags;
import java.time.Clock;
import java.util.Objects;

/**
 * Everything the runtime works with, built once per container (or per test). Time and waiting are
 * injected so tests move a clock instead of sleeping.
 *
 * @param delivery the real external-delivery port, used only where the stage enables delivery
 * @param conditions how the catalog's maintenance conditions are evaluated (decision 0036, 5)
 */
public record RuntimeServices(
        JobCatalog catalog,
        RunLedger ledger,
        StageFlags flags,
        LifecyclePublisher events,
        Clock clock,
        Sleeper sleeper,
        JobServices jobServices,
        Delivery delivery,
        ConditionProbe conditions,
        dev.punctual.longrun.LongExecutions executions) {

    public RuntimeServices {
        Objects.requireNonNull(catalog, "catalog");
        Objects.requireNonNull(ledger, "ledger");
        Objects.requireNonNull(flags, "flags");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(jobServices, "jobServices");
        Objects.requireNonNull(delivery, "delivery");
        Objects.requireNonNull(conditions, "conditions");
        Objects.requireNonNull(executions, "executions");
    }

    /** Without long jobs' engine ({@link dev.punctual.longrun.LongExecutions#NONE}): the form before decision 0039. */
    public RuntimeServices(
            JobCatalog catalog,
            RunLedger ledger,
            StageFlags flags,
            LifecyclePublisher events,
            Clock clock,
            Sleeper sleeper,
            JobServices jobServices,
            Delivery delivery,
            ConditionProbe conditions) {
        this(
                catalog,
                ledger,
                flags,
                events,
                clock,
                sleeper,
                jobServices,
                delivery,
                conditions,
                dev.punctual.longrun.LongExecutions.NONE);
    }

    /** The same services with {@code engine} for long jobs' executions. */
    public RuntimeServices withExecutions(dev.punctual.longrun.LongExecutions engine) {
        return new RuntimeServices(
                catalog, ledger, flags, events, clock, sleeper, jobServices, delivery, conditions, engine);
    }

    /** Without a probe: a catalog that declares a maintenance condition skips as MAINTENANCE_UNKNOWN. */
    public RuntimeServices(
            JobCatalog catalog,
            RunLedger ledger,
            StageFlags flags,
            LifecyclePublisher events,
            Clock clock,
            Sleeper sleeper,
            JobServices jobServices,
            Delivery delivery) {
        this(catalog, ledger, flags, events, clock, sleeper, jobServices, delivery, ConditionProbe.UNAVAILABLE);
    }
}
