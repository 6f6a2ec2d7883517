package dev.punctual.hold;

import dev.punctual.PunctualException;
import dev.punctual.ledger.LockState;

/**
 * What a hold tells its tool while it runs. Called on the renewer's thread; keep it short. A lost group
 * does not stop the tool (stopping a data load halfway can be worse than finishing it): the tool
 * decides, and the CLI reports it in its exit status.
 */
public interface HoldListener {

    /** The group's hold ended under us (lifted, forced over, or lapsed before a renewal); {@code now} is its item. */
    void lost(String group, LockState now);

    /** A renewal could not reach the ledger; the next one retries while the hold has not lapsed. */
    default void renewalFailed(String group, PunctualException fault) {}

    /** Tells nothing: the tool reads {@link HeldMaintenance#lost()} itself. */
    HoldListener SILENT = (group, now) -> {};
}
