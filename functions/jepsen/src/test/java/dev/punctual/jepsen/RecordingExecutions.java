package dev.punctual.jepsen;

import dev.punctual.json.Json;
import dev.punctual.longrun.LongExecutions;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A process's Step Functions (moto's), every {@code StartExecution} recorded as EXEC_START: the name, the
 * occurrence, the claim's fence and owner token (read from the input, a pure function of the claim), and
 * the answer (Started, AlreadyExists, or ERROR when unknown). It sits under the {@code LocalExecutionDriver},
 * so the start is recorded before the driver carries the execution's steps out.
 */
final class RecordingExecutions implements LongExecutions {

    private final LongExecutions engine;
    private final RecordingLedger ledger;

    RecordingExecutions(LongExecutions engine, RecordingLedger ledger) {
        this.engine = engine;
        this.ledger = ledger;
    }

    @Override
    public Start start(String jobId, String name, String input) {
        Op.Builder base = describe(ledger.op(Op.Kind.EXEC_START), jobId, name, input);
        return ledger.recorded(
                () -> engine.start(jobId, name, input),
                r -> base.result(r.getClass().getSimpleName()).detail(r.arn()),
                base);
    }

    /** The occurrence and the claim's lease as the execution's input carries them. */
    static Op.Builder describe(Op.Builder op, String jobId, String name, String input) {
        op.execution(name);
        try {
            Map<?, ?> claim = (Map<?, ?>) ((Map<?, ?>) Json.read(input)).get("claim");
            Map<?, ?> lease = (Map<?, ?>) claim.get("lease");
            op.occurrence(
                            jobId,
                            Instant.parse(String.valueOf(claim.get("occurrence")))
                                    .toEpochMilli(),
                            String.valueOf(lease.get("group")))
                    .lease(
                            ((Number) lease.get("fence")).longValue(),
                            String.valueOf(lease.get("owner")),
                            Instant.parse(String.valueOf(lease.get("until"))).toEpochMilli());
        } catch (Json.NotJsonException | RuntimeException unreadable) {
            op.detail("input not read: " + unreadable.getMessage());
        }
        return op;
    }

    @Override
    public String arnOf(String jobId, String name) {
        return engine.arnOf(jobId, name);
    }

    @Override
    public Optional<Execution> describe(String jobId, String name) {
        return engine.describe(jobId, name);
    }

    @Override
    public boolean stop(String jobId, String name, String cause) {
        return engine.stop(jobId, name, cause);
    }
}
