package dev.punctual.ledger;

import java.time.Duration;

/** Waiting, injected so that tests move a clock instead of sleeping. */
@FunctionalInterface
public interface Sleeper {

    void sleep(Duration duration) throws InterruptedException;

    static Sleeper real() {
        return duration -> Thread.sleep(duration);
    }
}
