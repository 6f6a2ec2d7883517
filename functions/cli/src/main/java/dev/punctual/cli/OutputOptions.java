package dev.punctual.cli;

import picocli.CommandLine.Option;

/**
 * {@code --output table|json}, the same on every command: a table for people by default, one JSON object
 * for scripts. {@code --json} is kept as a short form of {@code --output json}.
 */
final class OutputOptions {

    /** What a command prints on stdout. */
    enum Format {
        table,
        json
    }

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            defaultValue = "table",
            description = "table (the default, for people) or json (one object, for scripts)")
    Format output = Format.table;

    @Option(names = "--json", description = "Short for --output json")
    boolean json;

    boolean isJson() {
        return json || output == Format.json;
    }
}
