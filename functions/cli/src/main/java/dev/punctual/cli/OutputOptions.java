package dev.punctual.cli;

import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --output table|json}, the same on every command: a table for people by default, one JSON object
 * for scripts. {@code --json} is kept as a short form of {@code --output json}; with {@code --output
 * table} it is a contradiction, refused rather than silently printing one of them.
 */
final class OutputOptions implements CheckedOptions {

    /** What a command prints on stdout. */
    enum Format {
        table,
        json
    }

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            description = "table (the default, for people) or json (one object, for scripts)")
    Format output;

    @Option(names = "--json", description = "Short for --output json")
    boolean json;

    @Override
    public void check() {
        isJson();
    }

    boolean isJson() {
        if (json && output == Format.table) {
            throw new CommandLine.ParameterException(
                    command.commandLine(),
                    "--json, --output table: not together; accepted: one of them (--json is --output json)");
        }
        return json || output == Format.json;
    }
}
