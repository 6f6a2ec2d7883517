package dev.punctual.ledger;

import java.util.Optional;

/**
 * The job needs an operator's approval of the occurrence (decision 0041) and the claim found none: no
 * approval mark for a fresh claim, no planned approval on the run item for the others (a forced rerun or
 * a replay of an occurrence that already ran included: an approval is used once). Nothing was written;
 * {@code record} is the run item the claim read, if any.
 */
public record Unapproved(Optional<RunRecord> record) implements ClaimResult {}
