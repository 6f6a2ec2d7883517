package dev.punctual.job;

import dev.punctual.PunctualException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Declares a job as one that runs per entity (a tenant, a user, an account): its schedules are created
 * at runtime, one per entity, by the team's services through the entity client or by an operator through
 * {@code punctual schedules} (docs/entities.md). The job's own schedule is each entity's default
 * expression; an entity's schedule always names its own zone. Each entity has its own run items,
 * cursor and catch-up. The lease is the job's lock group, shared by all its entities: maintenance holds
 * every lock group it can name, and one lease per entity would be a group it cannot (decision 0029
 * records why, and how per-entity leases are to come without losing that).
 *
 * @param parameterKeys the keys an entity's parameters may have (a flat JSON object of strings, numbers
 *     and booleans, at most {@link #MAX_PARAMETER_CHARS} characters rendered); any other key is refused
 */
public record EntityJob(List<String> parameterKeys) {

    /** The rendered size bound of an entity's parameters: they travel in every delivery's input. */
    public static final int MAX_PARAMETER_CHARS = 4096;

    /** At most this many declared keys: parameters are small settings, not the entity's data. */
    public static final int MAX_PARAMETER_KEYS = 16;

    private static final Pattern KEY = Pattern.compile("[a-z][a-z0-9_]{0,31}");

    public EntityJob {
        parameterKeys = List.copyOf(parameterKeys);
        if (parameterKeys.size() > MAX_PARAMETER_KEYS) {
            throw new PunctualException("perEntity: " + parameterKeys.size() + " parameter keys are not accepted;"
                    + " expected at most " + MAX_PARAMETER_KEYS);
        }
        for (String key : parameterKeys) {
            if (!KEY.matcher(key).matches()) {
                throw new PunctualException("perEntity: parameter key '" + key + "' is not accepted; expected"
                        + " lower-case letters, digits and '_', starting with a letter, 1-32 (snake_case, as every"
                        + " field Punctual reads)");
            }
        }
        if (parameterKeys.stream().distinct().count() != parameterKeys.size()) {
            throw new PunctualException("perEntity: parameter keys " + parameterKeys + " name one key twice");
        }
    }

    /** Entities with these parameter keys (none: an entity's delivery carries only its id). */
    public static EntityJob parameters(String... keys) {
        return new EntityJob(List.of(keys));
    }
}
