package dev.punctual.ledger.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move by hand; optionally it ticks a little on every read so that time never stands still. */
public final class MutableClock extends Clock {

    private final AtomicLong millis;
    private final long tickMillis;

    public MutableClock(Instant start, Duration tickPerRead) {
        this.millis = new AtomicLong(start.toEpochMilli());
        this.tickMillis = tickPerRead.toMillis();
    }

    public MutableClock(Instant start) {
        this(start, Duration.ZERO);
    }

    public void advance(Duration by) {
        millis.addAndGet(by.toMillis());
    }

    public Instant peek() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.getAndAdd(tickMillis));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the ledger reads instants only");
    }
}
