package dev.punctual.entities;

/** What a put did to the entity's schedule. */
public enum PutResult {
    /** There was none; now there is one, as asked. */
    CREATED,
    /** There was one that differed in what Punctual owns; it was replaced, in place, by the one asked. */
    UPDATED,
    /** There was one equal to the one asked; nothing was written. */
    UNCHANGED
}
