package dev.punctual.time;

/**
 * The last {@link Stretch} a calculator resolved, shared by its searches. A stretch is immutable and
 * any stretch is correct to start from, so a plain volatile field is enough across threads.
 */
final class StretchCache {
    private volatile Stretch last;

    Stretch get() {
        return last;
    }

    void set(Stretch stretch) {
        last = stretch;
    }
}
