package dev.punctual.ledger.spi;

/** The result of one conditional write: applied (with the new state) or rejected (with the stored state). */
public sealed interface Write<T> {

    T value();

    record Applied<T>(T value) implements Write<T> {}

    record Rejected<T>(T value) implements Write<T> {}

    default boolean applied() {
        return this instanceof Applied<T>;
    }
}
