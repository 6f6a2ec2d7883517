package dev.punctual.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.cli.stage.CliContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** README's table of commands names every registered subcommand, and only those. */
class ReadmeCommandsTest {

    /** A row of the table: {@code | `name ...` | what it does |}. */
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z-]+)[^`]*` \\|", Pattern.MULTILINE);

    @Test
    void theCommandsTable_listsEveryRegisteredCommand() throws IOException {
        String readme = Files.readString(Path.of("../../README.md"));
        String table = readme.substring(readme.indexOf("| command | what it does |"));
        table = table.substring(0, table.indexOf("\n\n"));
        Set<String> listed = new TreeSet<>();
        Matcher row = ROW.matcher(table);
        while (row.find()) {
            listed.add(row.group(1));
        }
        Set<String> registered = new TreeSet<>(
                PunctualCli.subcommands(CliContext.withClock(CliRun.NOW)).keySet());
        // Shown above the table, as the line to paste into a shell's rc file.
        registered.remove("generate-completion");

        assertThat(listed).isEqualTo(registered);
    }
}
