package dev.punctual.ledger.testkit;

/** What an injected fault does to one request. */
public enum Fault {
    NONE,
    /** The request never reaches the store: nothing applied, the caller sees a connection failure. */
    BEFORE_SEND,
    /** The store applied the request, then the response was lost. */
    AFTER_APPLY,
    /** The store refused the request for capacity: nothing applied. */
    THROTTLE,
    /**
     * The store refused a plain write because its item is inside another request's transaction
     * (DynamoDB's TransactionConflictException): nothing applied.
     */
    TRANSACTION_CONFLICT
}
