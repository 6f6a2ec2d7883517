package dev.punctual.cli.output;

import dev.punctual.cli.input.CheckedOptions;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --output table|wide|json}, the same on every command: a table for people by default, one JSON
 * object for scripts. {@code wide} is the table with every column, as kubectl's {@code -o wide}: the
 * commands whose table has more than fits a terminal ({@code jobs}, {@code status}) show their narrow
 * set by default; elsewhere it is the table. {@code --json} is kept as a short form of {@code --output
 * json}; with {@code --output table} or {@code wide} it is a contradiction, refused rather than silently
 * printing one of them.
 */
public final class OutputOptions implements CheckedOptions {

    /** What a command prints on stdout. */
    enum Format {
        table,
        wide,
        json
    }

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FORMAT",
            description = "table (the default, for people), wide (every column of jobs and status) or json (one"
                    + " object, for scripts)")
    Format output;

    @Option(names = "--json", description = "Short for --output json")
    boolean json;

    @Override
    public void check() {
        isJson();
    }

    public boolean isJson() {
        if (json && output != null && output != Format.json) {
            throw new CommandLine.ParameterException(
                    command.commandLine(),
                    "--json, --output " + output + ": not together; accepted: one of them (--json is --output json)");
        }
        return json || output == Format.json;
    }

    /**
     * One result on the command's standard output: {@code json} as one JSON object with {@code --output
     * json}, else {@code readable}, the line a person reads.
     */
    public void print(Object json, String readable) throws com.fasterxml.jackson.core.JsonProcessingException {
        command.commandLine().getOut().println(isJson() ? Json.mapper().writeValueAsString(json) : readable);
    }

    /** Whether the table shows every column ({@code -o wide}). */
    boolean isWide() {
        return !isJson() && output == Format.wide;
    }
}
