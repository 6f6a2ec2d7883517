package dev.punctual.hold;

import dev.punctual.ledger.Busy;
import dev.punctual.ledger.MaintenanceRefused;
import java.util.List;

/**
 * What taking a hold came to. Only {@link Held} holds anything: a refused or incomplete take gave back
 * every group it took, so a tool told it is not held never leaves the stage half held.
 */
public sealed interface HoldOutcome {

    /** Every group is held, and renewed until {@link HeldMaintenance#close()}. */
    record Held(HeldMaintenance hold) implements HoldOutcome {}

    /** Another operator's hold is in force (who, why, until when are in {@code by}). */
    record Refused(MaintenanceRefused by) implements HoldOutcome {}

    /** Jobs (or entity runs) were still running when the wait ended: the groups they hold, and until when. */
    record StillRunning(List<Busy> runs) implements HoldOutcome {
        public StillRunning {
            runs = List.copyOf(runs);
        }
    }

    /** The hold, for try-with-resources; a refused or incomplete take is a {@link HoldNotTaken}. */
    default HeldMaintenance orThrow() {
        return switch (this) {
            case Held held -> held.hold();
            case Refused refused ->
                throw new HoldNotTaken("maintenance is held by someone else on "
                        + refused.by().group() + " (" + refused.by().hold().shown() + ")");
            case StillRunning still ->
                throw new HoldNotTaken("jobs were still running when the wait ended: "
                        + still.runs().stream()
                                .map(b -> b.group() + " (" + b.holder() + ")")
                                .toList()
                        + "; nothing is held");
        };
    }
}
