package dev.punctual.ledger.spi;

import dev.punctual.PunctualException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs a conditional write whose outcome may be unknown. After a timeout or lost response the write
 * may or may not have been applied, so the stored state decides: if it shows our write, it counts as
 * applied; if it shows the write absent, it is safe to send again (once). Nothing is assumed.
 */
final class ReadBack {

    private static final int SENDS = 2;

    private ReadBack() {}

    static <T> T write(String what, Supplier<T> send, Supplier<Optional<T>> storedAsOurs) {
        OutcomeUnknownException last = null;
        for (int i = 0; i < SENDS; i++) {
            try {
                return send.get();
            } catch (OutcomeUnknownException unknown) {
                last = unknown;
                Optional<T> applied = storedAsOurs.get();
                if (applied.isPresent()) {
                    return applied.get();
                }
            }
        }
        throw new PunctualException(what + ": not applied after " + SENDS + " sends; the ledger is unavailable", last);
    }
}
