package dev.punctual.runtime;

import dev.punctual.job.RunHistory;
import dev.punctual.ledger.DueIndex;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The ledger, seen by jobs through the job API's read-only {@link RunHistory}, with the ledger's due index
 * of entities' expected occurrences ({@link DueIndex#NONE} where the catalog has no per-entity job).
 */
public record LedgerHistory(RunLedger ledger, DueIndex due) implements RunHistory {

    public LedgerHistory {
        Objects.requireNonNull(ledger, "ledger");
        Objects.requireNonNull(due, "due");
    }

    /** Without a due index: tools, and catalogs without per-entity jobs. */
    public LedgerHistory(RunLedger ledger) {
        this(ledger, DueIndex.NONE);
    }

    @Override
    public Optional<Instant> cursor(String job) {
        return ledger.cursor(job);
    }

    /** One read of the job's lock item (a {@code GetItem}), the one {@link #cursor} also makes. */
    @Override
    public Optional<Instant> lastSuccess(String job) {
        return ledger.lock(job).lastSuccess();
    }

    @Override
    public boolean recorded(String job, Instant occurrence) {
        return ledger.run(new RunKey(job, occurrence)).isPresent();
    }

    @Override
    public Optional<String> resultSummary(String job, Instant occurrence) {
        return ledger.run(new RunKey(job, occurrence)).map(r -> r.resultSummary());
    }

    @Override
    public boolean entityDeleted(String ledgerId) {
        return ledger.lock(ledgerId).deleted();
    }

    @Override
    public List<ExpectedOccurrence> expectedBetween(Instant after, Instant upTo) {
        return due.expectedBetween(after, upTo).stream()
                .map(e -> new ExpectedOccurrence(e.ledgerId(), e.occurrence()))
                .toList();
    }
}
