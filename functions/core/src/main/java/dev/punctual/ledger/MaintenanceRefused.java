package dev.punctual.ledger;

import java.util.Objects;

/**
 * Turning maintenance on was refused: another operator's hold is in force on {@code group} (who set it,
 * why and until when are in {@code hold}). Someone else holding maintenance is an answer, not a fault.
 * The refused request holds nothing: what it took before it met the hold, it gave back.
 */
public record MaintenanceRefused(String group, MaintenanceHold hold) {
    public MaintenanceRefused {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(hold, "hold");
    }
}
