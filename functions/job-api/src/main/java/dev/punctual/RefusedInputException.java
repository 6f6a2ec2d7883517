package dev.punctual;

/**
 * Input Punctual refuses, said so the person who gave it can correct it: the field, what was given and
 * what would be accepted. One base type for every such refusal (a schedule expression, a stage's
 * config, an operator's option), so that every entry point maps them alike (the CLI: exit 2, one line,
 * the same JSON error object) and never mistakes one for a fault of its own.
 */
public abstract class RefusedInputException extends PunctualException {
    private static final long serialVersionUID = 1L;

    protected RefusedInputException(String message) {
        super(message);
    }
}
