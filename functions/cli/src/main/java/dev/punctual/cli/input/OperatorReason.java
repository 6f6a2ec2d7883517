package dev.punctual.cli.input;

import picocli.CommandLine.Option;

/**
 * {@code --reason TEXT}, one declaration for every command that records why (decision 0048): {@link
 * Required} where a command cannot act without one ({@code skip}, {@code pause}, {@code cancel}, {@code
 * blackout add}), {@link Optional} where it checks it itself or may go without ({@code maintenance},
 * {@code approve}). Its help is the command's own, read from the command's resource bundle under
 * {@code punctual.<command>.reason} ({@code descriptionKey}).
 */
public abstract sealed class OperatorReason permits OperatorReason.Required, OperatorReason.Optional {

    /** What was typed, or null when {@code --reason} was not given. */
    public abstract String typed();

    /** The reason as stored: refused (exit 2) as {@link OperatorText#reason} says. */
    public String checked() {
        return OperatorText.reason(typed());
    }

    /** {@code --reason} that picocli requires. */
    public static final class Required extends OperatorReason {

        @Option(names = "--reason", required = true, paramLabel = "TEXT", descriptionKey = "reason")
        String reason;

        @Override
        public String typed() {
            return reason;
        }
    }

    /** {@code --reason} that the command checks itself, or goes without. */
    public static final class Optional extends OperatorReason {

        @Option(names = "--reason", paramLabel = "TEXT", descriptionKey = "reason")
        String reason;

        @Override
        public String typed() {
            return reason;
        }
    }
}
