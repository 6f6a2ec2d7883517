package dev.punctual.cli.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.cli.input.Suggestions;
import dev.punctual.observability.Redactor;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * The CLI's one error format, {@code <field>: <problem>; accepted: <what would be>}, for picocli's own
 * parse errors too, and its JSON form for {@code --output json}:
 * {@code {"error": {"command", "field", "problem", "accepted", "exit_code"}}}.
 */
public final class ErrorReport {

    /** picocli: "Invalid value for option '--output': expected one of [table, json] (case-sensitive) but was 'x'". */
    private static final Pattern ENUM = Pattern.compile(
            "Invalid value for (?:option|positional parameter at index \\d+) '?([^']+?)'?: expected one of \\[(.*)]"
                    + " \\(case-sensitive\\) but was '(.*)'");

    /** picocli: "Invalid value for option '--max': 'abc' is not an int". */
    private static final Pattern VALUE =
            Pattern.compile("Invalid value for (?:option|positional parameter at index \\d+) '?([^']+?)'?: (.*)");

    /** Reads an argument the way it was typed, as one (RefusalLine redacts the whole line after). */
    private static final Redactor ARGUMENTS = new Redactor(1_000_000);

    private ErrorReport() {}

    /** Whether the command line asks for JSON ({@code --output json}, {@code -o json}, {@code --json}). */
    public static boolean wantsJson(String... args) {
        boolean json = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--json") || a.equals("--output=json") || a.equals("-ojson")) {
                json = true;
            } else if ((a.equals("--output") || a.equals("-o")) && i + 1 < args.length) {
                json = args[i + 1].equals("json");
            } else if (a.startsWith("--output=")) {
                json = false;
            }
        }
        return json;
    }

    /** The last value given to {@code option} ({@code --opt V} or {@code --opt=V}; the last one wins), if any. */
    public static String optionValue(String option, String... args) {
        String value = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(option) && i + 1 < args.length) {
                value = args[i + 1];
            } else if (args[i].startsWith(option + "=")) {
                value = args[i].substring(option.length() + 1);
            }
        }
        return value;
    }

    /** An option's name in picocli's messages. */
    private static final Pattern OPTION = Pattern.compile("--[a-z][a-z-]*");

    /**
     * An option of one alternative given with another ({@code plan --job X --zone Y}): picocli reports
     * the second alternative's missing half ({@code --schedule}), but the mistake is mixing the two, so
     * that is what is said, naming what was given; null when the options given do not mix alternatives.
     */
    private static String mixedAlternatives(
            CommandLine.MissingParameterException missing, List<CommandLine.Model.OptionSpec> matched, String help) {
        for (CommandLine.Model.ArgSpec arg : missing.getMissing()) {
            CommandLine.Model.ArgGroupSpec half = arg.group();
            CommandLine.Model.ArgGroupSpec alternatives = half == null ? null : half.parentGroup();
            if (alternatives == null || !alternatives.exclusive() || half.exclusive()) {
                continue;
            }
            List<String> other = matched.stream()
                    .filter(o -> o.group() != null && o.group() != half && within(o.group(), alternatives))
                    .map(CommandLine.Model.OptionSpec::longestName)
                    .toList();
            if (other.isEmpty()) {
                continue;
            }
            List<String> given = new java.util.ArrayList<>(other);
            matched.stream()
                    .filter(o -> o.group() == half)
                    .map(CommandLine.Model.OptionSpec::longestName)
                    .forEach(given::add);
            return String.join(", ", given) + ": not together; accepted: "
                    + String.join(" or ", alternatives(alternatives)) + " (see " + help + ")";
        }
        return null;
    }

    private static boolean within(CommandLine.Model.ArgGroupSpec group, CommandLine.Model.ArgGroupSpec ancestor) {
        for (CommandLine.Model.ArgGroupSpec g = group; g != null; g = g.parentGroup()) {
            if (g == ancestor) {
                return true;
            }
        }
        return false;
    }

    /** A parse error in the CLI's format, with "did you mean" for a mistyped command or option. */
    public static String said(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
            List<String> typed = unmatched.getUnmatched();
            String first = typed.isEmpty() ? "" : typed.get(0);
            List<String> suggestions = unmatched.getSuggestions();
            String hint = suggestions.isEmpty() ? "" : " (did you mean " + suggestions.get(0) + "?)";
            CommandLine command = e.getCommandLine();
            if (!first.startsWith("-") && !command.getSubcommands().isEmpty()) {
                // picocli's own suggestions miss a swapped pair of letters (jbos); ours do not.
                String closest = hint.isEmpty() ? Suggestions.didYouMean(first, visible(command)) : hint;
                return "command: '" + ARGUMENTS.argument(first) + "' is not a command; accepted: "
                        + String.join(", ", visible(command)) + closest;
            }
            if (first.equals("--table") || first.startsWith("--table=")) {
                // The option that meant two things before decision 0012: say what each meaning is called now.
                return "--table: not an option any more; accepted: --ledger-table NAME (the ledger table) or"
                        + " --output table (print a table)";
            }
            if (first.equals("--domain-table") || first.startsWith("--domain-table=")) {
                // The demo's table became one of the catalog's declared tables (decision 0021).
                return "--domain-table: not an option any more; accepted: --job-table DECLARED=NAME (a table the"
                        + " catalog declares, e.g. --job-table Orders=NAME)";
            }
            String closest = hint.isEmpty()
                    ? Suggestions.didYouMean(
                            first.replaceFirst("=.*", ""),
                            command.getCommandSpec().optionsMap().keySet())
                    : hint;
            // Masked as one argument: a --password=VALUE WITH SPACES loses its whole value, not its first word.
            return ARGUMENTS.argument(first) + ": not an option of this command; accepted: see "
                    + command.getCommandSpec().qualifiedName() + " --help" + closest;
        }
        String help = e.getCommandLine().getCommandSpec().qualifiedName() + " --help";
        if (e instanceof CommandLine.MissingParameterException missing) {
            CommandLine.Model.ArgGroupSpec alternatives = missing.getMissing().stream()
                    .map(CommandLine.Model.ArgSpec::group)
                    .filter(group -> group != null && group.exclusive())
                    .findFirst()
                    .orElse(null);
            if (alternatives != null) {
                // picocli names the first alternative only (`--job`); the person may want any of them.
                return String.join(" or ", alternatives(alternatives)) + ": one of them is required; accepted: see "
                        + help;
            }
            List<CommandLine.Model.OptionSpec> matched = e.getCommandLine().getParseResult() == null
                    ? List.of()
                    : e.getCommandLine().getParseResult().matchedOptions();
            String mixed = mixedAlternatives(missing, matched, help);
            if (mixed != null) {
                return mixed;
            }
            List<String> given = matched.stream()
                    .map(CommandLine.Model.OptionSpec::longestName)
                    .toList();
            List<String> names = missing.getMissing().stream()
                    .map(arg -> arg.isOption() ? ((CommandLine.Model.OptionSpec) arg).longestName() : arg.paramLabel())
                    .filter(name -> !given.contains(name)) // a group names its options given too
                    .toList();
            return String.join(", ", names) + ": required; accepted: see " + help;
        }
        if (e instanceof CommandLine.MaxValuesExceededException) {
            // picocli: "expected only one match but got (--to=INSTANT | --count=N)={--to=...} and ...": two
            // options of one exclusive group, said as the two options and the group's alternatives.
            String both = bothOfOneGroup(e.getCommandLine().getCommandSpec().argGroups(), e.getMessage(), help);
            if (both != null) {
                return both;
            }
        }
        if (e instanceof CommandLine.MutuallyExclusiveArgsException) {
            // picocli: "--job=ID and [--schedule=EXPR --zone=ZONE] are mutually exclusive (specify only one)"
            List<String> options = OPTION.matcher(String.valueOf(e.getMessage()))
                    .results()
                    .map(m -> m.group())
                    .distinct()
                    .toList();
            return String.join(", ", options) + ": not together; accepted: one of them (see " + help + ")";
        }
        String message = String.valueOf(e.getMessage()).strip();
        Matcher choice = ENUM.matcher(message);
        if (choice.matches()) {
            return choice.group(1) + ": '" + choice.group(3) + "' is not accepted; accepted: " + choice.group(2);
        }
        Matcher value = VALUE.matcher(message);
        if (value.matches()) {
            String problem = value.group(2);
            // picocli says what the value is not; the format says what would be.
            if (problem.endsWith(" is not an int") || problem.endsWith(" is not a long")) {
                return value.group(1) + ": " + problem + "; accepted: a whole number, digits 0-9 only (see "
                        + e.getCommandLine().getCommandSpec().qualifiedName() + " --help for its range)";
            }
            return value.group(1) + ": " + problem;
        }
        return message;
    }

    /**
     * The options of one exclusive group that picocli's message shows given ({@code {--to=...}}), when
     * more than one is: "--to, --count: not together; accepted: --to INSTANT or --count N"; null otherwise.
     */
    private static String bothOfOneGroup(List<CommandLine.Model.ArgGroupSpec> groups, String message, String help) {
        for (CommandLine.Model.ArgGroupSpec group : groups) {
            if (group.exclusive()) {
                List<String> given = group.options().stream()
                        .map(CommandLine.Model.OptionSpec::longestName)
                        .filter(name -> message.contains("{" + name + "=") || message.contains(" " + name + "="))
                        .toList();
                if (given.size() > 1) {
                    return String.join(", ", given) + ": not together; accepted: "
                            + String.join(" or ", alternatives(group)) + " (see " + help + ")";
                }
            }
            String nested = bothOfOneGroup(group.subgroups(), message, help);
            if (nested != null) {
                return nested;
            }
        }
        return null;
    }

    /** An exclusive group's alternatives, as the person types them: {@code --job ID}, {@code --schedule EXPR --zone ZONE}. */
    private static List<String> alternatives(CommandLine.Model.ArgGroupSpec group) {
        List<String> each = new java.util.ArrayList<>();
        for (CommandLine.Model.OptionSpec option : group.options()) {
            each.add(option.longestName() + " " + option.paramLabel());
        }
        for (CommandLine.Model.ArgGroupSpec sub : group.subgroups()) {
            each.add(String.join(
                    " ",
                    sub.options().stream()
                            .map(o -> o.longestName() + " " + o.paramLabel())
                            .toList()));
        }
        return each;
    }

    private static List<String> visible(CommandLine command) {
        return command.getSubcommands().entrySet().stream()
                .filter(c -> !c.getValue().getCommandSpec().usageMessage().hidden())
                .map(java.util.Map.Entry::getKey)
                .toList();
    }

    /** The error line as a JSON object: field, problem and accepted split where the line has them. */
    public static String json(String command, String line, int exitCode) {
        ObjectNode error = Json.mapper().createObjectNode();
        error.put("command", command);
        String field = null;
        String problem = line;
        String accepted = null;
        int accept = problem.indexOf("; accepted: ");
        if (accept >= 0) {
            accepted = problem.substring(accept + "; accepted: ".length());
            problem = problem.substring(0, accept);
        }
        int colon = problem.indexOf(": ");
        if (colon > 0 && !problem.startsWith("failed")) {
            field = problem.substring(0, colon);
            problem = problem.substring(colon + 2);
        }
        error.put("field", field);
        error.put("problem", problem);
        error.put("accepted", accepted);
        error.put("exit_code", exitCode);
        ObjectNode root = Json.mapper().createObjectNode();
        root.set("error", error);
        return root.toString();
    }
}
