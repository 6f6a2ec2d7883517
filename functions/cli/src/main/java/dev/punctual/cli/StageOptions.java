package dev.punctual.cli;

import picocli.CommandLine.Option;

/**
 * {@link StageTarget} plus the tables a command reads and writes: by default the ones the stage's stack
 * names. Against an emulator the CLI creates missing tables; against AWS it never does (the CDK owns
 * them).
 */
final class StageOptions extends StageTarget {

    @Option(
            names = "--ledger-table",
            paramLabel = "NAME",
            description = "The ledger table; default: the one the stage's stack names (on an emulator:"
                    + " punctual-<stage>-ledger)")
    String ledgerTable;

    @Option(
            names = "--domain-table",
            paramLabel = "NAME",
            description = "The demo domain table (default punctual-<stage>-domain)")
    String domainTable;

    /** The ledger table named on the command line, if one was. */
    java.util.Optional<String> ledgerTableOption() {
        return java.util.Optional.ofNullable(ledgerTable).filter(t -> !t.isBlank());
    }

    /** On an emulator: the named ledger table, else {@code punctual-<stage>-ledger}. */
    String emulatorLedgerTable() {
        return ledgerTableOption().orElse("punctual-" + stageName() + "-ledger");
    }

    /** On an emulator: the named domain table, else {@code punctual-<stage>-domain}. */
    String emulatorDomainTable() {
        return domainTable == null ? "punctual-" + stageName() + "-domain" : domainTable;
    }
}
