package dev.punctual.ledger;

/** Who holds a lock group: a job run, or maintenance (which serialises with jobs like a global lock). */
public enum LeaseKind {
    JOB,
    MAINTENANCE
}
