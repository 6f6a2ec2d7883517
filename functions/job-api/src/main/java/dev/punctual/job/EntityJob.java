package dev.punctual.job;

import dev.punctual.PunctualException;
import dev.punctual.time.Spread;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Declares a job as one that runs per entity (a tenant, a user, an account): its schedules are created
 * at runtime, one per entity, by the team's services through the entity client or by an operator through
 * {@code punctual schedules} (docs/entities.md). The job's own schedule is each entity's default
 * expression; an entity's schedule always names its own zone. Each entity has its own run items,
 * cursor, catch-up and, by default, its own lease, so entities of one job run in parallel; a maintenance
 * hold on the job's lock group still holds every entity (decision 0029, 5). {@link #oneAtATime()}, or a
 * lock group shared with other jobs, keeps all entities under the job's group instead: one entity at a
 * time, serialised with the group's other jobs.
 *
 * @param parameterKeys the keys an entity's parameters may have (a flat JSON object of strings, numbers
 *     and booleans, at most {@link #MAX_PARAMETER_CHARS} characters rendered); any other key is refused
 * @param oneAtATime all entities share the job's lock group's lease, one run at a time
 * @param spread when present, each entity's schedule is deployed a stable number of minutes after its
 *     nominal occurrences, within this window ({@link #spreadOver}, decision 0030)
 */
public record EntityJob(List<String> parameterKeys, boolean oneAtATime, Optional<Spread> spread) {

    /** The rendered size bound of an entity's parameters: they travel in every delivery's input. */
    public static final int MAX_PARAMETER_CHARS = 4096;

    /** At most this many declared keys: parameters are small settings, not the entity's data. */
    public static final int MAX_PARAMETER_KEYS = 16;

    private static final Pattern KEY = Pattern.compile("[a-z][a-z0-9_]{0,31}");

    public EntityJob {
        parameterKeys = List.copyOf(parameterKeys);
        spread = spread == null ? Optional.empty() : spread;
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

    /** Entities with these parameter keys, each with its own lease. */
    public EntityJob(List<String> parameterKeys) {
        this(parameterKeys, false, Optional.empty());
    }

    /** The same entities under one lease, the job's lock group: one entity's run at a time. */
    public EntityJob sharingOneLease() {
        return new EntityJob(parameterKeys, true, spread);
    }

    /**
     * The same entities, their occurrences due in one minute spread over {@code window} (whole minutes,
     * 2 to 60): each entity's schedule fires a stable offset after its nominal occurrence, derived from
     * the job's and the entity's ids, so a burst above the scheduler's invocation rate is not delayed.
     * The run, its ledger keys and its outcome line keep the nominal occurrence (decision 0030).
     *
     * @throws dev.punctual.time.ScheduleExpressionException naming {@code spreadOver} for another window
     */
    public EntityJob spreadOver(Duration window) {
        return new EntityJob(parameterKeys, oneAtATime, Optional.of(new Spread(window)));
    }

    /** Entities with these parameter keys (none: an entity's delivery carries only its id). */
    public static EntityJob parameters(String... keys) {
        return new EntityJob(List.of(keys));
    }
}
