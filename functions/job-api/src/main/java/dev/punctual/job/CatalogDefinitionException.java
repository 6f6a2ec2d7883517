package dev.punctual.job;

import dev.punctual.RefusedInputException;

/**
 * A job or catalog written in a way Punctual refuses (a catch-up that could never replay, an id used
 * twice, a table declared two ways), said so the team can correct its code: the job, the field, what was
 * given and what would be accepted. An input error like an operator's, so the CLI exits 2 on it, as on
 * any other input it refuses.
 */
public final class CatalogDefinitionException extends RefusedInputException {
    private static final long serialVersionUID = 1L;

    public CatalogDefinitionException(String message) {
        super(message);
    }
}
