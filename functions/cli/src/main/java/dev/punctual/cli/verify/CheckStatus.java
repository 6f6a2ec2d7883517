package dev.punctual.cli.verify;

/** How one check of {@code punctual verify} ended. Only FAIL makes verify exit non-zero. */
public enum CheckStatus {
    PASS,
    /** Not a fault, but something an operator should know (a check that could not run, an unpinned stage). */
    WARN,
    FAIL
}
