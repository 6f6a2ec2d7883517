package dev.punctual.entity;

import java.util.regex.Pattern;

/**
 * An entity's id: the team's own key for a tenant, user or account. It becomes part of the ledger's keys
 * ({@code job:entity}) and of the schedule's name, so it keeps to their common alphabet; an id with other
 * characters (an e-mail address) is mapped to one by the team, once, as its own key.
 */
public final class EntityIds {

    /** Letters, digits and {@code _ . : -}, starting with a letter or digit, at most 128. */
    public static final String ACCEPTED =
            "letters, digits and '_', '.', ':', '-', starting with a letter or a digit," + " 1-128 characters";

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");

    private EntityIds() {}

    public static boolean valid(String id) {
        return id != null && ID.matcher(id).matches();
    }

    /** The id, or a refusal naming the field {@code entity}. */
    public static String require(String id) {
        if (!valid(id)) {
            throw new EntityScheduleException("entity", "'" + shown(id) + "' is not accepted; accepted: " + ACCEPTED);
        }
        return id;
    }

    /**
     * The id the ledger keeps the entity's run items, cursor and (by default) lease under: the job's id and
     * the entity's, joined by {@code :}, which a job id never holds, so the pair reads back one way only.
     */
    public static String ledgerId(String jobId, String entityId) {
        return jobId + ":" + require(entityId);
    }

    static String shown(String id) {
        if (id == null) {
            return "(none)";
        }
        String bounded = id.length() > 60 ? id.substring(0, 60) + "…" : id;
        return dev.punctual.observability.VisibleText.escaped(bounded);
    }
}
