package dev.punctual.job;

import dev.punctual.PunctualException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a job would do for one occurrence, counted without doing it: the answer to a dry run, and what an
 * operator checks before a delivering or destructive job is enabled. Counts only, never the rows or
 * recipients themselves, so a preview can be printed and logged without personal data.
 *
 * @param changes rows or items the run would write or update
 * @param deliveries messages it would hand to the delivery port (push, mail)
 * @param deletions rows it would delete or otherwise destroy: the targets of a destructive job
 */
public record JobPreview(long changes, long deliveries, long deletions) {

    public JobPreview {
        if (changes < 0 || deliveries < 0 || deletions < 0) {
            throw new PunctualException("job preview: counts must be 0 or more; got changes=" + changes
                    + ", deliveries=" + deliveries + ", deletions=" + deletions);
        }
    }

    public static JobPreview changes(long count) {
        return new JobPreview(count, 0, 0);
    }

    public static JobPreview deliveries(long count) {
        return new JobPreview(0, count, 0);
    }

    public static JobPreview deletions(long count) {
        return new JobPreview(0, 0, count);
    }

    /** The counts under the field names of the outcome line and the CLI's JSON. */
    public Map<String, Object> fields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("changes", changes);
        fields.put("deliveries", deliveries);
        fields.put("deletions", deletions);
        return fields;
    }
}
