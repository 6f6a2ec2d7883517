package dev.punctual.cli.verify;

/**
 * One check of {@code punctual verify}. Each check is built from plain values (what the stage's code
 * expects, what was read from the deployed stage), so its judgement is tested without any server; the
 * reading is done by its {@code read} factory.
 */
public interface Check {

    /** The check's short name, the first column of its line. */
    String name();

    CheckResult result();
}
