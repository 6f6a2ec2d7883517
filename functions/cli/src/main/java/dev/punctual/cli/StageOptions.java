package dev.punctual.cli;

import picocli.CommandLine.Option;

/**
 * Where an operator command works: a stage's tables, on AWS (default credential chain and region) or
 * on an emulator ({@code --endpoint}). Against an emulator the CLI creates missing tables; against AWS
 * it never does (the CDK owns them).
 */
final class StageOptions {

    @Option(
            names = "--stage",
            paramLabel = "NAME",
            defaultValue = "dev",
            description = "Stage (default: ${DEFAULT-VALUE}); its safety flags apply")
    String stage;

    @Option(
            names = "--endpoint",
            paramLabel = "URL",
            description = "A DynamoDB-compatible endpoint, e.g. http://127.0.0.1:4566; default: AWS")
    String endpoint;

    /** What a bare {@code --table} stands for; never a valid table name (too short for DynamoDB). */
    static final String READABLE = "-";

    /**
     * The two uses of {@code --table} coexist: {@code --table NAME} names the ledger table and a
     * bare {@code --table} asks for readable output; both may be given at once.
     */
    @Option(
            names = "--table",
            arity = "0..1",
            fallbackValue = READABLE,
            paramLabel = "NAME",
            description = "With NAME: the ledger table (default punctual-<stage>-ledger). Alone: print a readable"
                    + " table instead of JSON. May be given twice")
    java.util.List<String> table = new java.util.ArrayList<>();

    @Option(
            names = "--domain-table",
            paramLabel = "NAME",
            description = "The demo domain table (default punctual-<stage>-domain)")
    String domainTable;

    @Option(
            names = "--region",
            paramLabel = "REGION",
            description = "AWS region (default: AWS_REGION, or us-east-1 with --endpoint)")
    String region;

    boolean readableTable() {
        return table.contains(READABLE);
    }

    String ledgerTable() {
        return table.stream()
                .filter(t -> !t.equals(READABLE))
                .reduce((a, b) -> b)
                .orElse("punctual-" + stage + "-ledger");
    }

    String domainTableName() {
        return domainTable == null ? "punctual-" + stage + "-domain" : domainTable;
    }
}
