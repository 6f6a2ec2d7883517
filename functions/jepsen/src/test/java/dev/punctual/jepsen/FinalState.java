package dev.punctual.jepsen;

import java.util.List;
import java.util.Map;

/**
 * What the tables hold once every process has stopped, read with consistent reads.
 *
 * @param read false for a history checked on its own: then only the history's own checks run
 * @param runs by {@link Op#occurrenceKey()}: the occurrence's record as {@code RunLedger.run} returns it;
 *     an occurrence the history names and the ledger has no record of is absent
 * @param lockFences by lock group: the stored {@code leaseFence} (the last fence handed out)
 * @param domain by lock group: the domain item's fence and how many writes landed on it
 * @param longRuns by {@link Op#occurrenceKey()}, for the long job's occurrences the history names: what
 *     the ledger keeps beside the run item (the execution noted, the chunk records) and the chunks' items
 *     in the domain table
 * @param executions every execution moto's Step Functions lists for the long job's state machine
 */
public record FinalState(
        boolean read,
        Map<String, StoredRun> runs,
        Map<String, Long> lockFences,
        Map<String, DomainItem> domain,
        Map<String, LongState> longRuns,
        List<StoredExecution> executions) {

    /** Without long runs: the short jobs' final state. */
    public FinalState(
            boolean read, Map<String, StoredRun> runs, Map<String, Long> lockFences, Map<String, DomainItem> domain) {
        this(read, runs, lockFences, domain, Map.of(), List.of());
    }

    /**
     * One long occurrence in the end.
     *
     * @param noted the execution the ledger notes for it (its name), null when none
     * @param planned the chunks its plan listed, as noted ({@code ExecutionRecord.NOT_PLANNED} when not)
     * @param chunks by chunk key: the ledger's chunk records
     * @param effects by chunk key: the chunk's item in the domain table (its fence, how many writes landed)
     */
    public record LongState(
            String noted, int planned, Map<String, StoredChunk> chunks, Map<String, DomainItem> effects) {
        public LongState {
            chunks = Map.copyOf(chunks);
            effects = Map.copyOf(effects);
        }
    }

    /** A chunk record: SUCCEEDED or FAILED, the fence of its last recorded attempt, the attempts recorded. */
    public record StoredChunk(String status, long fence, int attempts) {}

    /**
     * An execution as moto lists it, with the occurrence and fence its input's claim carries.
     *
     * @param occurrence as {@link Op#occurrenceKey()}
     */
    public record StoredExecution(String name, String occurrence, long fence, String status) {}

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
        longRuns = Map.copyOf(longRuns);
        executions = List.copyOf(executions);
    }

    /** For histories checked on their own (the checker's unit tests). */
    public static FinalState unknown() {
        return new FinalState(false, Map.of(), Map.of(), Map.of());
    }
}
