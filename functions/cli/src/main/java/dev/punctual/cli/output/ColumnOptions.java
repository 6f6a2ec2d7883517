package dev.punctual.cli.output;

import dev.punctual.cli.input.CheckedOptions;
import dev.punctual.cli.input.Suggestions;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Which columns a wide table shows: a narrow set that fits a terminal by default, every column with
 * {@code -o wide}, or the ones named with {@code --columns} (kubectl's {@code -o wide} and
 * {@code custom-columns}). The JSON always has every field: {@code --columns} with it is refused, as is a
 * column the table does not have, both before the command reads anything.
 */
public final class ColumnOptions implements CheckedOptions {

    /** A command whose table has more columns than a terminal shows. */
    public interface Tabled {
        /** Every column's header, in the table's order. */
        String[] header();

        /** The columns shown by default, by {@link Table#key}: what fits in 120 characters. */
        List<String> narrow();

        OutputOptions output();
    }

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    @Option(
            names = "--columns",
            split = ",",
            paramLabel = "COLUMN",
            description =
                    "The table's columns, by name, in this order (e.g. job,next-local,in); -o wide shows them" + " all")
    List<String> columns;

    private Tabled tabled() {
        return (Tabled) command.userObject();
    }

    @Override
    public void check() {
        if (columns == null) {
            return;
        }
        if (tabled().output().isJson()) {
            throw new CommandLine.ParameterException(
                    command.commandLine(),
                    "--columns, --output json: not together; accepted: --columns with a table (the JSON has every"
                            + " field)");
        }
        List<String> known = Table.keys(tabled().header());
        for (String column : columns) {
            if (!known.contains(column)) {
                throw new CommandLine.ParameterException(
                        command.commandLine(),
                        "--columns: '" + column + "' is not a column of " + command.name() + "; accepted: "
                                + String.join(", ", known) + Suggestions.didYouMean(column, known));
            }
        }
    }

    /** The columns to show, by key. */
    public List<String> shown() {
        check();
        if (columns != null) {
            return List.copyOf(columns);
        }
        return tabled().output().isWide() ? Table.keys(tabled().header()) : tabled().narrow();
    }
}
