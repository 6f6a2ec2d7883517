package dev.punctual.demo;

import dev.punctual.PunctualException;
import dev.punctual.json.Json;
import dev.punctual.ledger.ChunkRecord;
import dev.punctual.ledger.LockState;
import dev.punctual.ledger.RunKey;
import dev.punctual.ledger.RunLedger;
import dev.punctual.ledger.RunRecord;
import dev.punctual.observability.StructuredLog;
import dev.punctual.runtime.Deadline;
import dev.punctual.runtime.InvocationResult;
import dev.punctual.runtime.OccurrenceReport;
import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.longrun.ChunkAttemptFailed;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;

/**
 * The long job's act (decision 0039): an operator runs February's month-end close, a duplicate of that
 * run meets the execution it started, and the demo then sends the execution's steps itself, as the
 * deployed state machine would invoke the function: plan, a chunk per member (one failing until an edit
 * is saved, retried as the state machine's retrier would), finish. moto keeps the execution but cannot
 * invoke anything, so nothing else drives it: every step below is the runtime's own step handler.
 */
final class MonthEndAct {

    static final String JOB = "month-end-close";

    /** February 2027's last day, 23:00 in Seoul. */
    static final Instant OCCURRENCE = Instant.parse("2027-02-28T14:00:00Z");

    /** The state machine's retrier's first interval for a failed chunk (decision 0039, 4). */
    static final Duration RETRY_INTERVAL = Duration.ofSeconds(2);

    private static final String ROW = "%-20s %-22s %-27s %-9s %-7s %-20s %s%n";
    private static final String STEP = "%-20s step %-7s %-14s %-10s %s%n";
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ISO_OFFSET_DATE_TIME;

    private final PunctualRuntime runtime;
    private final SimulatedClock clock;
    private final StructuredLog log;
    private final PrintWriter out;
    private final SfnClient sfn;
    private final String stateMachineArn;
    private final DynamoDbClient dynamo;
    private final String domainTable;

    MonthEndAct(
            PunctualRuntime runtime,
            SimulatedClock clock,
            StructuredLog log,
            PrintWriter out,
            SfnClient sfn,
            String stateMachineArn,
            DynamoDbClient dynamo,
            String domainTable) {
        this.runtime = runtime;
        this.clock = clock;
        this.log = log;
        this.out = out;
        this.sfn = sfn;
        this.stateMachineArn = stateMachineArn;
        this.dynamo = dynamo;
        this.domainTable = domainTable;
    }

    void run() {
        out.printf("%n-- month-end-close, a long job: its occurrence runs as one Step Functions execution (plan, a"
                + " chunk per member, two at a time, finish). An operator runs February's close by hand;"
                + " moto keeps the execution but invokes nothing, so the demo sends its steps as the"
                + " state machine would, to the same step handler%n");
        String run = Json.write(Map.of("kind", "run", "job", JOB, "at", OCCURRENCE.toString()));
        OccurrenceReport started = deliver(run, "punctual run " + JOB + " --at " + OCCURRENCE);
        clock.advance(Duration.ofSeconds(40));
        deliver(run, "the same run delivered again (as Lambda's retry would)");
        List<ExecutionListItem> executions =
                sfn.listExecutions(b -> b.stateMachineArn(stateMachineArn)).executions();
        out.printf(
                "%-20s executions of %s on moto: %d (%s)%n",
                "",
                stateMachineArn.substring(stateMachineArn.lastIndexOf(':') + 1),
                executions.size(),
                String.join(
                        ", ",
                        executions.stream()
                                .map(e -> e.name() + " " + e.statusAsString())
                                .toList()));
        if (executions.size() != 1 || !executions.get(0).name().equals(executionName(started))) {
            throw new PunctualException("demo: expected the one execution the run started, found " + executions);
        }
        String arn = executions.get(0).executionArn();
        Object claim = claimOf(sfn.describeExecution(b -> b.executionArn(arn)).input());
        steps(claim, arn);
        ledgerAfterwards();
    }

    /** The plan, each chunk (the edited member's until the edit is saved), then the finish. */
    private void steps(Object claim, String arn) {
        clock.advance(Duration.ofSeconds(1));
        Map<?, ?> plan = answer(step("plan", claim, arn, null));
        List<?> chunks = (List<?>) plan.get("chunks");
        out.printf(STEP, now(), "plan", "", "", chunks.size() + " chunks: " + chunks);
        for (Object key : chunks) {
            String member = (String) key;
            clock.advance(Duration.ofSeconds(1));
            try {
                answer(step("chunk", claim, arn, member));
            } catch (ChunkAttemptFailed failed) {
                printChunk(member, failed.getMessage());
                DemoData.saveEdit(dynamo, domainTable, DemoData.EDITED);
                clock.advance(RETRY_INTERVAL);
                out.printf(
                        "%-20s the agent saves the edit: %s is %s now; the state machine's retrier sends the chunk"
                                + " again after %ds%n",
                        now(),
                        DemoData.EDITED,
                        DemoData.status(dynamo, domainTable, DemoData.EDITED),
                        RETRY_INTERVAL.toSeconds());
                answer(step("chunk", claim, arn, member));
            }
            printChunk(member, "");
        }
        clock.advance(Duration.ofSeconds(1));
        Map<?, ?> finish = answer(step("finish", claim, arn, null));
        RunRecord record = runtime.services().ledger().run(key()).orElseThrow();
        out.printf(
                STEP,
                now(),
                "finish",
                "",
                String.valueOf(finish.get("status")),
                "the occurrence " + record.status() + ", the completion releases the lock group");
    }

    /** A chunk's line: the attempt the ledger recorded last, and how it ended. */
    private void printChunk(String member, String failure) {
        ChunkRecord chunk =
                runtime.services().ledger().longRuns().chunk(key(), member).orElseThrow();
        out.printf(
                STEP,
                now(),
                "chunk",
                member,
                chunk.status(),
                "attempt " + chunk.attempts() + (failure.isEmpty() ? "" : ": " + failure));
    }

    private void ledgerAfterwards() {
        RunLedger ledger = runtime.services().ledger();
        RunRecord record = ledger.run(key()).orElseThrow();
        out.printf("%n%-20s ledger: %s %s %s, %s%n", now(), JOB, OCCURRENCE, record.status(), record.resultSummary());
        StringBuilder chunks = new StringBuilder();
        for (ChunkRecord chunk : ledger.longRuns().chunks(key())) {
            chunks.append(chunks.isEmpty() ? "" : ", ")
                    .append(chunk.chunk())
                    .append(' ')
                    .append(chunk.status())
                    .append(" after ")
                    .append(chunk.attempts())
                    .append(chunk.attempts() == 1 ? " attempt" : " attempts");
        }
        out.printf("%-20s chunks, each recorded once: %s%n", "", chunks);
        LockState lock = ledger.lock(JOB);
        out.printf(
                "%-20s lock group %s: %s (fence %d)%n",
                "",
                JOB,
                lock.leaseHeldAt(clock.instant()) ? "STILL HELD by " + lock.leaseOwner() : "released",
                lock.fence());
        // Said so no one reads moto's RUNNING as the occurrence's state: the ledger holds that.
        out.printf(
                "%-20s (moto still lists the execution RUNNING: it runs no states; on AWS it ends SUCCEEDED after"
                        + " Finish)%n",
                "");
    }

    private OccurrenceReport deliver(String payload, String note) {
        InvocationResult result =
                runtime.handle(payload, Deadline.fromRemaining(clock.instant(), Duration.ofMinutes(5)), log);
        OccurrenceReport o = result.occurrences().get(0);
        out.printf(
                ROW,
                now(),
                o.job(),
                LOCAL.format(o.local()),
                o.trigger(),
                o.verdict(),
                o.reason(),
                note + (o.detail() == null ? "" : "; " + o.detail()));
        return o;
    }

    /** The step's payload as the state machine's task builds it (decision 0039, 3), sent to the runtime. */
    private String step(String step, Object claim, String arn, String chunk) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("kind", "long_step");
        payload.put("step", step);
        payload.put("claim", claim);
        if (chunk != null) {
            payload.put("chunk", chunk);
        }
        payload.put("execution", arn);
        return runtime.step(Json.write(payload), Deadline.fromRemaining(clock.instant(), Duration.ofMinutes(15)), log);
    }

    private static Map<?, ?> answer(String json) {
        try {
            return (Map<?, ?>) Json.read(json);
        } catch (Json.NotJsonException e) {
            throw new PunctualException("demo: a step answered no JSON object: " + json, e);
        }
    }

    /** The claim the execution's input carries, as moto's DescribeExecution returns it. */
    private static Object claimOf(String input) {
        return answer(input).get("claim");
    }

    /** The execution a STARTED report names ("execution <name>"). */
    private static String executionName(OccurrenceReport started) {
        String detail = String.valueOf(started.detail());
        return detail.startsWith("execution ") ? detail.substring("execution ".length()) : detail;
    }

    private static RunKey key() {
        return new RunKey(JOB, OCCURRENCE);
    }

    private String now() {
        return clock.instant().toString().substring(0, 19);
    }
}
