package dev.punctual.runtime;

import dev.punctual.job.RunHistory;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import java.time.Instant;
import java.util.Optional;

/** The ledger, seen by jobs through the job API's read-only {@link RunHistory}. */
public record LedgerHistory(RunLedger ledger) implements RunHistory {

    @Override
    public Optional<Instant> cursor(String job) {
        return ledger.cursor(job);
    }

    @Override
    public boolean recorded(String job, Instant occurrence) {
        return ledger.run(new RunKey(job, occurrence)).isPresent();
    }

    @Override
    public Optional<String> resultSummary(String job, Instant occurrence) {
        return ledger.run(new RunKey(job, occurrence)).map(r -> r.resultSummary());
    }
}
