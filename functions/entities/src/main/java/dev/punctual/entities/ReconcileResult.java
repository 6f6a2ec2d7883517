package dev.punctual.entities;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a reconcile did, or with {@code dryRun} would do: each entity's change, and the counts by change.
 *
 * @param changes every entity of the file and, with prune, each deleted one, in file order then entity order
 */
public record ReconcileResult(String job, boolean dryRun, List<Change> changes) {

    /** One entity's change. */
    public record Change(String entity, Kind kind) {}

    /** CREATE, UPDATE and DELETE write (unless a dry run); UNCHANGED writes nothing. */
    public enum Kind {
        CREATE,
        UPDATE,
        UNCHANGED,
        DELETE
    }

    public ReconcileResult {
        changes = List.copyOf(changes);
    }

    /** How many of each kind, every kind present (0 when none). */
    public Map<Kind, Integer> counts() {
        Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            counts.put(kind, 0);
        }
        changes.forEach(c -> counts.merge(c.kind(), 1, Integer::sum));
        return counts;
    }
}
