package dev.punctual.entity;

import dev.punctual.job.EntityJob;
import dev.punctual.json.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An entity's parameters, checked the one way on every path that takes them from outside (a put, an
 * import, a delivery's input, an operator's run): a flat JSON object whose keys the job declared, with
 * string, number or boolean values, small enough to travel in every delivery. A key the job did not
 * declare is refused, never dropped: a misspelled {@code locale} must not quietly become the default.
 */
public final class EntityParameters {

    private EntityParameters() {}

    /** The parameters in their given order, or a refusal naming {@code parameters} or the bad key. */
    public static Map<String, Object> check(String jobId, EntityJob spec, Map<String, ?> given) {
        if (given == null || given.isEmpty()) {
            return Map.of();
        }
        List<String> declared = spec.parameterKeys();
        Map<String, Object> checked = new LinkedHashMap<>();
        for (Map.Entry<String, ?> entry : given.entrySet()) {
            String key = entry.getKey();
            if (!declared.contains(key)) {
                throw new EntityScheduleException(
                        "parameters." + EntityIds.shown(key),
                        "not a parameter of " + jobId + "; accepted: "
                                + (declared.isEmpty()
                                        ? "none (the job declares no parameters)"
                                        : String.join(", ", declared))
                                + didYouMean(key, declared));
            }
            Object value = entry.getValue();
            if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
                throw new EntityScheduleException(
                        "parameters." + key,
                        "must be a string, a number or true/false, was "
                                + (value == null ? "null" : Json.write(value)));
            }
            checked.put(key, normalised(value));
        }
        int size = Json.write(checked).length();
        if (size > EntityJob.MAX_PARAMETER_CHARS) {
            throw new EntityScheduleException(
                    "parameters",
                    size + " characters rendered is too large; accepted: at most " + EntityJob.MAX_PARAMETER_CHARS
                            + " (they travel in every delivery; keep the entity's data in the team's own tables)");
        }
        return java.util.Collections.unmodifiableMap(checked);
    }

    /**
     * A number as JSON reads it back (a whole number as a Long, any other as a Double), so the parameters
     * a put gave and the ones its schedule's input reads back as are equal.
     */
    private static Object normalised(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        return value;
    }

    /** " (did you mean x?)" for a declared key within two edits (or the same letters in another case). */
    private static String didYouMean(String key, List<String> declared) {
        String best = null;
        int bestDistance = 3;
        for (String candidate : declared) {
            int distance = key.length() > 64
                    ? Integer.MAX_VALUE
                    : dev.punctual.EditDistance.between(
                            key.toLowerCase(java.util.Locale.ROOT).replace("-", "_"), candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best == null ? "" : " (did you mean " + best + "?)";
    }
}
