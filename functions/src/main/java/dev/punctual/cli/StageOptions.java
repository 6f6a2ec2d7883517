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

    @Option(
            names = "--table",
            arity = "0..1",
            fallbackValue = "",
            paramLabel = "NAME",
            description =
                    "With NAME: the ledger table (default punctual-<stage>-ledger). Alone: print a readable table instead of JSON")
    String table;

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
        return table != null && table.isEmpty();
    }

    String ledgerTable() {
        return table == null || table.isEmpty() ? "punctual-" + stage + "-ledger" : table;
    }

    String domainTableName() {
        return domainTable == null ? "punctual-" + stage + "-domain" : domainTable;
    }
}
