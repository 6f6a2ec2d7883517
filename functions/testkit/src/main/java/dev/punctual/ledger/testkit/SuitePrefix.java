package dev.punctual.ledger.testkit;

import java.util.UUID;

/**
 * The prefix of the ids one contract suite's instance uses. The suites of a module share one table (one
 * moto server per test run), so each instance draws a fresh prefix and never meets another's items. The one
 * place the test kit draws random ids for that; the ledgers under test still take their tokens and clocks
 * injected.
 */
final class SuitePrefix {

    private SuitePrefix() {}

    /** {@code letter} (naming the suite in the table, for whoever reads it) and 8 random hex digits. */
    static String fresh(char letter) {
        return letter + UUID.randomUUID().toString().substring(0, 8);
    }
}
