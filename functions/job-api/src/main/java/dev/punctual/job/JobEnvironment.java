package dev.punctual.job;

import dev.punctual.stage.StageConfigException;
import dev.punctual.stage.StageFlags;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link CatalogProvider} is given to build its jobs' own clients and tables: the stage's
 * settings, the process's environment variables (in Lambda, what the CDK app set on the function) and
 * the runtime's clock.
 *
 * @param flags the stage's safety switches
 * @param variables environment variables; empty when only the definitions are read
 * @param clock the runtime's clock (simulated in the demo, moved in tests)
 */
public record JobEnvironment(StageFlags flags, Map<String, String> variables, Clock clock) {

    public JobEnvironment {
        Objects.requireNonNull(flags, "flags");
        Objects.requireNonNull(clock, "clock");
        variables = Map.copyOf(variables);
    }

    /**
     * For reading the definitions only (synth, plan): no variables, so a provider that connects while
     * building its catalog fails with the variable's name; and a fixed clock, since a catalog is a
     * function of the code, not of when it was read.
     */
    public static JobEnvironment definitionsOnly(StageFlags flags) {
        return new JobEnvironment(flags, Map.of(), Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    }

    public Optional<String> variable(String name) {
        return Optional.ofNullable(variables.get(name)).filter(v -> !v.isBlank());
    }

    /** The variable's value, or a fault naming it. */
    public String require(String name) {
        return variable(name)
                .orElseThrow(() -> new StageConfigException(
                        name, String.valueOf(variables.get(name)), "a value in the function's environment"));
    }
}
