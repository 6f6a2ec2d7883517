package dev.punctual.entities;

import dev.punctual.RefusedInputException;

/**
 * Stage facts a put cannot be written with: the message names the field ({@link #field()}), what was
 * given and what would be accepted, and nothing was created, changed or deleted. A refusal of its own,
 * not an {@code EntityScheduleException}: the entity's schedule may be fine, the client's setup is not.
 */
public final class EntityTargetsException extends RefusedInputException {
    private static final long serialVersionUID = 1L;

    private final String field;

    public EntityTargetsException(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
    }

    /** The field that is wrong, e.g. {@code group}, {@code pools.bulk}, {@code retryAttempts}. */
    public String field() {
        return field;
    }
}
