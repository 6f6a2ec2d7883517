package dev.punctual.cli.input;

import dev.punctual.cli.output.RefusalLine;
import dev.punctual.observability.VisibleText;
import java.util.regex.Pattern;

/**
 * The names an operator types that reach AWS (a stage, a region, a table), checked before anything
 * connects: a name AWS would refuse fails here with exit 2 naming the option and what is accepted,
 * instead of later with a raw SDK error, after tables were created or items written. An echoed name
 * shows control and bidirectional characters as escapes, so it cannot reorder or forge the line it is in.
 */
public final class OperatorNames {
    private OperatorNames() {}

    /** The stage names Stages.java and the functions' environment accept (StageFlags). */
    private static final Pattern STAGE = Pattern.compile("[a-z][a-z0-9-]{0,19}");

    /** AWS region codes: us-east-1, eu-central-1, us-gov-west-1, ap-southeast-5, cn-north-1. */
    private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-[0-9]{1,2}");

    /** DynamoDB's table-name rule: 3 to 255 of a-z, A-Z, 0-9, underscore, hyphen and dot. */
    private static final Pattern TABLE = Pattern.compile("[a-zA-Z0-9_.-]{3,255}");

    public static String stage(String option, String name) {
        if (!STAGE.matcher(name).matches()) {
            throw new OperatorInputException(option + ": '" + shown(name) + "' is not a stage name; accepted: a"
                    + " lower-case letter and up to 19 more of a-z, 0-9 and -, e.g. dev or prod-eu");
        }
        return name;
    }

    public static String region(String option, String name) {
        if (!REGION.matcher(name).matches()) {
            throw new OperatorInputException(option + ": '" + shown(name) + "' is not an AWS region; accepted:"
                    + " a region code such as us-east-1 or eu-central-1");
        }
        return name;
    }

    public static String table(String option, String name) {
        if (!TABLE.matcher(name).matches()) {
            throw new OperatorInputException(option + ": '" + shown(name) + "' is not a DynamoDB table name;"
                    + " accepted: 3 to 255 of a-z, A-Z, 0-9, _, - and .");
        }
        return name;
    }

    /**
     * Control, format (bidi) and non-ASCII whitespace characters as \\uXXXX ({@link VisibleText}, the rule
     * every printed hold follows too); the length is bounded where every refusal line is ({@link RefusalLine}).
     */
    static String shown(String text) {
        return VisibleText.escaped(text);
    }
}
