package dev.punctual.demo;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** The demo's clock: it moves when the simulation says so, so a two-day window runs in seconds. */
public final class SimulatedClock extends Clock {

    private final AtomicLong millis;

    public SimulatedClock(Instant start) {
        this.millis = new AtomicLong(start.toEpochMilli());
    }

    public void set(Instant instant) {
        millis.set(instant.toEpochMilli());
    }

    public void advance(Duration by) {
        millis.addAndGet(by.toMillis());
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return Clock.fixed(instant(), zone);
    }
}
