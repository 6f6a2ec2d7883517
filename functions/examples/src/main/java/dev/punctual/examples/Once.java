package dev.punctual.examples;

import java.util.function.Supplier;

/**
 * Builds a value on first use and keeps it: the catalog is read where there is nothing to connect to
 * (synth, plan), so clients are built when a job first needs them, once per container.
 */
final class Once<T> implements Supplier<T> {

    private final Supplier<T> make;
    private T value;

    Once(Supplier<T> make) {
        this.make = make;
    }

    @Override
    public synchronized T get() {
        if (value == null) {
            value = make.get();
        }
        return value;
    }
}
