package dev.punctual.runtime;

/**
 * A payload the handler refuses before touching the ledger. Returned, logged and reported, never
 * thrown: a retry would fail the same way.
 *
 * @param code machine-readable: NOT_JSON, NOT_AN_OBJECT, UNKNOWN_KIND, MISSING_FIELD, WRONG_TYPE,
 *     BAD_TIME, UNKNOWN_JOB, NOT_AN_OCCURRENCE, BAD_RANGE
 * @param field the offending field, or null
 * @param message one line saying what was wrong and what is accepted
 */
public record InvalidPayload(String code, String field, String message) {}
