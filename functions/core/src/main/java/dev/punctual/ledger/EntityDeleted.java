package dev.punctual.ledger;

/**
 * The entity was deleted (its ledger item carries a {@link EntityTombstone}): the occurrence must be
 * recorded as an ENTITY_DELETED skip and never run. {@code ledgerId} is the entity's {@code job:entity}.
 */
public record EntityDeleted(String ledgerId, EntityTombstone tombstone) implements ClaimResult {}
