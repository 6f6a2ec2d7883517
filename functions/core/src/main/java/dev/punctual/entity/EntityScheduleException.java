package dev.punctual.entity;

import dev.punctual.RefusedInputException;

/**
 * An entity schedule Punctual refuses: the message names the field ({@link #field()}), what was given and
 * what would be accepted, and nothing was created, changed or deleted.
 */
public final class EntityScheduleException extends RefusedInputException {
    private static final long serialVersionUID = 1L;

    private final String field;

    public EntityScheduleException(String field, String problem) {
        super(field + ": " + problem);
        this.field = field;
    }

    /** The field that is wrong: {@code job}, {@code entity}, {@code schedule}, {@code zone}, {@code parameters}. */
    public String field() {
        return field;
    }
}
