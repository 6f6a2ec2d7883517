package dev.punctual.runtime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Payload fields renamed to snake_case, the one naming convention of everything Punctual reads and
 * prints (docs/decisions/0028-payload-fields-in-snake-case.md). A payload is a deployed contract: a
 * schedule's input, a message on a dead-letter queue waiting for redrive, an operator's saved event file
 * all outlive a deploy. So the function reads each old name as its new one for one release, and refuses
 * both in one payload; from {@link #REFUSED_FROM} the old names are unknown fields like any other.
 */
public final class RenamedFields {

    /** The first version whose function no longer reads the old names ({@code RenamedFieldsTest} enforces it). */
    public static final String REFUSED_FROM = "0.2.0";

    /** Old name to new name. */
    public static final Map<String, String> OLD_TO_NEW;

    static {
        Map<String, String> renamed = new LinkedHashMap<>();
        renamed.put("scheduledTime", ScheduledPayload.SCHEDULED_TIME);
        renamed.put("executionId", ScheduledPayload.EXECUTION_ID);
        renamed.put("attemptNumber", ScheduledPayload.ATTEMPT_NUMBER);
        renamed.put("scheduleArn", ScheduledPayload.SCHEDULE_ARN);
        renamed.put("dryRun", ScheduledPayload.DRY_RUN);
        OLD_TO_NEW = java.util.Collections.unmodifiableMap(renamed);
    }

    private RenamedFields() {}

    /** A payload's fields with the old names read as the new ones, and which old names it used. */
    record Read(Map<String, Object> fields, List<String> oldNamesUsed) {}

    /**
     * The payload's fields under their new names.
     *
     * @throws IllegalArgumentException naming both fields, when a payload has a field under both names:
     *     which one was meant cannot be told
     */
    static Read read(Map<String, Object> root) {
        Map<String, Object> fields = new LinkedHashMap<>();
        List<String> used = new java.util.ArrayList<>();
        for (Map.Entry<String, Object> field : root.entrySet()) {
            String renamed = OLD_TO_NEW.get(field.getKey());
            if (renamed == null) {
                fields.put(field.getKey(), field.getValue());
                continue;
            }
            if (root.containsKey(renamed)) {
                throw new IllegalArgumentException(renamed);
            }
            fields.put(renamed, field.getValue());
            used.add(field.getKey());
        }
        return new Read(fields, List.copyOf(used));
    }
}
