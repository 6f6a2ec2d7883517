package dev.punctual.job;

import dev.punctual.PunctualException;
import java.time.Duration;
import java.util.Objects;

/**
 * A deployed Lambda function that hosts the jobs assigned to it. Jobs with similar needs share a pool,
 * so a stage does not pay one function (and one SnapStart snapshot) per job.
 *
 * @param name short id, used in construct ids and function names
 * @param memoryMb Lambda memory (128 to 10240 MB)
 * @param timeout Lambda timeout (at most 15 minutes); the lease of a run never outlives it
 */
public record FunctionPool(String name, int memoryMb, Duration timeout) {

    public static final Duration MAX_TIMEOUT = Duration.ofMinutes(15);

    /** Small and short: most scheduled jobs read and write a few items. */
    public static final FunctionPool DEFAULT = new FunctionPool("default", 1024, Duration.ofMinutes(5));

    public FunctionPool {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(timeout, "timeout");
        if (!name.matches("[a-z][a-z0-9-]{0,29}")) {
            throw new PunctualException(
                    "pool name: '" + name
                            + "' is not accepted; expected lower-case letters, digits and '-', starting with a letter, at most 30");
        }
        if (memoryMb < 128 || memoryMb > 10240) {
            throw new PunctualException(
                    "pool " + name + " memoryMb: '" + memoryMb + "' is not accepted; expected 128 to 10240");
        }
        if (timeout.compareTo(Duration.ofSeconds(10)) < 0 || timeout.compareTo(MAX_TIMEOUT) > 0) {
            throw new PunctualException(
                    "pool " + name + " timeout: '" + timeout + "' is not accepted; expected PT10S to PT15M");
        }
    }
}
