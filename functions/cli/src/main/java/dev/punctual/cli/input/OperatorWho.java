package dev.punctual.cli.input;

import picocli.CommandLine.Option;

/**
 * {@code --by WHO}, one declaration for every command that records who decided ({@code skip}, {@code pause},
 * {@code cancel}, {@code approve}, {@code maintenance}, {@code blackout add}; decision 0048). Its help is
 * the command's own ("Who skips it", "Who pauses it"): picocli reads it from the command's resource bundle
 * under {@code punctual.<command>.by} ({@code descriptionKey}).
 */
public final class OperatorWho {

    @Option(names = "--by", paramLabel = "WHO", descriptionKey = "by")
    String by;

    /** What was typed, or null when {@code --by} was not given. */
    public String typed() {
        return by;
    }

    /** Who, as stored and shown: {@code --by}, else {@code $USER}; refused (exit 2) as {@link OperatorText#by} says. */
    public String who() {
        return OperatorText.by(by != null ? by : System.getProperty("user.name", "operator"));
    }
}
