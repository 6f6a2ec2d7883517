package dev.punctual.jepsen;

import java.util.Map;

/**
 * What the tables hold once every process has stopped, read with consistent reads.
 *
 * @param read false for a history checked on its own: then only the history's own checks run
 * @param runs by {@link Op#occurrenceKey()}: the occurrence's record as {@code RunLedger.run} returns it;
 *     an occurrence the history names and the ledger has no record of is absent
 * @param lockFences by lock group: the stored {@code leaseFence} (the last fence handed out)
 * @param domain by lock group: the domain item's fence and how many writes landed on it
 */
public record FinalState(
        boolean read, Map<String, StoredRun> runs, Map<String, Long> lockFences, Map<String, DomainItem> domain) {

    /**
     * @param operatorSkip whether the record is an operator's skip (decision 0033), planned or acted
     */
    public record StoredRun(String status, String owner, long fence, boolean operatorSkip) {
        /** A record no operator's skip made. */
        public StoredRun(String status, String owner, long fence) {
            this(status, owner, fence, false);
        }
    }

    public record DomainItem(long fence, long seq) {}

    public FinalState {
        runs = Map.copyOf(runs);
        lockFences = Map.copyOf(lockFences);
        domain = Map.copyOf(domain);
    }

    /** For histories checked on their own (the checker's unit tests). */
    public static FinalState unknown() {
        return new FinalState(false, Map.of(), Map.of(), Map.of());
    }
}
