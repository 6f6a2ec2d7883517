package dev.punctual.time;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * The values a cron field matches, as a bit set over the field's range. Immutable; the search walks
 * it with {@link #next(int)} and {@link #previous(int)} instead of testing value by value.
 */
final class FieldSet {
    private final CronField field;
    private final long[] words;

    private FieldSet(CronField field, long[] words) {
        this.field = field;
        this.words = words;
    }

    static FieldSet of(CronField field, java.util.BitSet values) {
        long[] words = new long[(field.max() >> 6) + 1];
        long[] given = values.toLongArray();
        System.arraycopy(given, 0, words, 0, Math.min(given.length, words.length));
        return new FieldSet(field, words);
    }

    static FieldSet all(CronField field) {
        java.util.BitSet all = new java.util.BitSet();
        all.set(field.min(), field.max() + 1);
        return of(field, all);
    }

    CronField field() {
        return field;
    }

    boolean contains(int value) {
        return value >= 0 && (value >> 6) < words.length && (words[value >> 6] & (1L << value)) != 0;
    }

    /** The smallest value >= from in the set, or -1. */
    int next(int from) {
        int index = from >> 6;
        if (from < 0 || index >= words.length) {
            return -1;
        }
        long word = words[index] & (-1L << from);
        while (word == 0) {
            if (++index == words.length) {
                return -1;
            }
            word = words[index];
        }
        return (index << 6) + Long.numberOfTrailingZeros(word);
    }

    /** The largest value <= from in the set, or -1. */
    int previous(int from) {
        if (from < 0) {
            return -1;
        }
        int index = Math.min(from >> 6, words.length - 1);
        long word = (from >> 6) > index ? words[index] : words[index] & (-1L >>> (63 - (from & 63)));
        while (word == 0) {
            if (--index < 0) {
                return -1;
            }
            word = words[index];
        }
        return (index << 6) + 63 - Long.numberOfLeadingZeros(word);
    }

    boolean isEmpty() {
        return next(0) < 0;
    }

    boolean isFull() {
        return IntStream.rangeClosed(field.min(), field.max()).allMatch(this::contains);
    }

    IntStream values() {
        return IntStream.rangeClosed(field.min(), field.max()).filter(this::contains);
    }

    /** The first 64 values as a mask, for fields that fit in one word (all but the year). */
    long firstWord() {
        return words[0];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FieldSet that && field == that.field && Arrays.equals(words, that.words);
    }

    @Override
    public int hashCode() {
        return field.hashCode() * 31 + Arrays.hashCode(words);
    }

    @Override
    public String toString() {
        return FieldText.render(this);
    }
}
