package dev.punctual.job;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A value built on first use and kept: what a catalog provider wraps its clients in. The catalog is read
 * where there is nothing to connect to (the CDK app's synth, {@code plan}, {@code jobs}), so a job's
 * client must not be built in {@code catalog(...)} but when a job first needs it, once per container.
 *
 * <pre>{@code
 * Supplier<Exports> exports = Once.of(() -> new DynamoExports(env));
 * }</pre>
 */
public final class Once<T> implements Supplier<T> {

    private final Supplier<? extends T> make;
    private T value;

    private Once(Supplier<? extends T> make) {
        this.make = Objects.requireNonNull(make, "make");
    }

    public static <T> Once<T> of(Supplier<? extends T> make) {
        return new Once<>(make);
    }

    /** The value, built by the first call (under a lock, so two threads never build two). */
    @Override
    public synchronized T get() {
        if (value == null) {
            value = Objects.requireNonNull(make.get(), "the value Once built");
        }
        return value;
    }
}
