package dev.punctual.jepsen;

import dev.punctual.jepsen.HistoryChecker.Check;
import dev.punctual.jepsen.HistoryChecker.Tenure;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A long job's occurrences (decision 0039) against their executions, chunk records and chunk side effects.
 * Kept apart from {@link HistoryChecker}'s lease checks, which cover the long claims too: a long claim's
 * tenure lasts from its claim to its completion, its lease's end being the extension's ({@code EXTEND}).
 *
 * <ul>
 *   <li>{@link Check#EXECUTION_TWICE}: at most one execution is started (answered Started) per occurrence
 *       and claim (fence), and two executions of one occurrence never belong to claims whose tenures
 *       overlap; in the end, moto's executions of an occurrence carry distinct fences, and each is one the
 *       history started (or may have: its start's answer was lost). An execution left RUNNING by a killed
 *       driver is no anomaly: on AWS Step Functions would go on driving it;
 *   <li>{@link Check#CHUNK_TWICE}: a chunk's success is recorded at most once per occurrence, and the
 *       ledger's chunk record in the end is the success the history recorded (or may have: its answer was
 *       an ERROR, or its process halted with the record in flight, its CHUNK_INTENT unanswered);
 *   <li>{@link Check#CHUNK_EFFECT_STALE}: in the order the domain table applied them, the fences of a
 *       chunk's landed side effects never go down (a stale fence overwriting a newer one), the guard refuses
 *       only a lower fence, the item counts what the history landed, and a chunk the ledger holds as
 *       succeeded under fence F had its side effect land under F, and its item still carries F or more;
 *   <li>{@link Check#LONG_INCOMPLETE}: an occurrence recorded SUCCEEDED has every planned chunk recorded
 *       as succeeded, in the end and before the completion was sent.
 * </ul>
 *
 * An operation whose call threw (ERROR) may or may not have taken effect: it counts as possibly done.
 */
final class LongChecks {

    private static final String STARTED = "Started";
    private static final String RECORDED = "Recorded";
    private static final String SUCCEEDED = "SUCCEEDED";

    private final List<Op> history;
    private final FinalState state;
    private final SkipChecks.Anomalies anomalies;
    private final Map<String, Tenure> tenureByToken = new HashMap<>();

    private LongChecks(List<Op> history, FinalState state, List<Tenure> tenures, SkipChecks.Anomalies anomalies) {
        this.history = history;
        this.state = state;
        this.anomalies = anomalies;
        tenures.stream().filter(t -> !t.maintenance()).forEach(t -> tenureByToken.put(t.token(), t));
    }

    static void check(
            List<Op> history,
            FinalState state,
            List<Tenure> tenures,
            SkipChecks.Anomalies anomalies,
            Map<String, Long> figures) {
        LongChecks checks = new LongChecks(history, state, tenures, anomalies);
        checks.executions();
        checks.chunkRecords();
        checks.chunkEffects();
        checks.completeness();
        checks.figures(figures);
    }

    private List<Op> ops(Op.Kind kind) {
        return history.stream().filter(o -> o.kind() == kind).toList();
    }

    private static boolean is(Op op, String result) {
        return result.equals(op.result());
    }

    private static String chunkKey(Op op) {
        return op.occurrenceKey() + " chunk " + op.chunk();
    }

    // ------------------------------------------------------------------ (1) executions

    private void executions() {
        Map<String, List<Op>> started = ops(Op.Kind.EXEC_START).stream()
                .filter(o -> is(o, STARTED) && o.fence() != null)
                .collect(Collectors.groupingBy(Op::occurrenceKey, TreeMap::new, Collectors.toList()));
        started.forEach((occurrence, starts) -> {
            Map<Long, List<Op>> byFence = starts.stream().collect(Collectors.groupingBy(Op::fence));
            byFence.forEach((fence, same) -> {
                if (same.stream().map(Op::execution).distinct().count() > 1) {
                    anomaly(
                            Check.EXECUTION_TWICE,
                            occurrence + ": claim fence " + fence + " started "
                                    + same.stream()
                                            .map(Op::execution)
                                            .distinct()
                                            .count() + " executions",
                            same);
                }
            });
            // One start per fence: the claims of two different executions must never have held at once.
            List<Op> firsts = byFence.values().stream().map(l -> l.get(0)).toList();
            for (int i = 0; i < firsts.size(); i++) {
                for (int j = i + 1; j < firsts.size(); j++) {
                    Tenure a = tenureByToken.get(firsts.get(i).token());
                    Tenure b = tenureByToken.get(firsts.get(j).token());
                    if (a != null
                            && b != null
                            && !a.empty()
                            && !b.empty()
                            && a.start() < b.end()
                            && b.start() < a.end()) {
                        anomalies.report(
                                Check.EXECUTION_TWICE,
                                occurrence + ": executions of fences " + a.fence() + " and " + b.fence()
                                        + " belong to claims held at the same time",
                                List.of(a.brief(), b.brief()));
                    }
                }
            }
        });
        if (!state.read()) {
            return;
        }
        Set<String> occurrences = state.longRuns().keySet();
        Map<String, List<Op>> startsByName = ops(Op.Kind.EXEC_START).stream()
                .filter(o -> o.execution() != null)
                .collect(Collectors.groupingBy(Op::execution));
        Map<String, List<FinalState.StoredExecution>> byOccurrence = state.executions().stream()
                .filter(e -> occurrences.contains(e.occurrence()))
                .collect(Collectors.groupingBy(
                        FinalState.StoredExecution::occurrence, TreeMap::new, Collectors.toList()));
        byOccurrence.forEach((occurrence, executions) -> {
            Map<Long, List<FinalState.StoredExecution>> byFence =
                    executions.stream().collect(Collectors.groupingBy(FinalState.StoredExecution::fence));
            byFence.forEach((fence, same) -> {
                if (same.size() > 1) {
                    anomalies.report(
                            Check.EXECUTION_TWICE,
                            occurrence + ": Step Functions holds " + same.size() + " executions of claim fence "
                                    + fence,
                            same.stream().map(Object::toString).toList());
                }
            });
            if (executions.stream()
                            .map(FinalState.StoredExecution::name)
                            .distinct()
                            .count()
                    < executions.size()) {
                anomalies.report(
                        Check.EXECUTION_TWICE,
                        occurrence + ": Step Functions lists one execution name twice",
                        executions.stream().map(Object::toString).toList());
            }
            for (FinalState.StoredExecution execution : executions) {
                boolean accounted = startsByName.getOrDefault(execution.name(), List.of()).stream()
                        .anyMatch(o -> is(o, STARTED) || is(o, Op.ERROR));
                if (!accounted) {
                    anomalies.report(
                            Check.EXECUTION_TWICE,
                            occurrence + ": Step Functions holds execution " + execution.name()
                                    + " that no process's start accounts for",
                            List.of(execution.toString()));
                }
            }
        });
    }

    // ------------------------------------------------------------------ (2) chunk records

    private void chunkRecords() {
        Map<String, List<Op>> successes = ops(Op.Kind.CHUNK).stream()
                .filter(o -> is(o, RECORDED) && SUCCEEDED.equals(o.status()))
                .collect(Collectors.groupingBy(LongChecks::chunkKey, TreeMap::new, Collectors.toList()));
        successes.forEach((chunk, recorded) -> {
            if (recorded.size() > 1) {
                anomaly(
                        Check.CHUNK_TWICE,
                        chunk + ": its success was recorded " + recorded.size() + " times",
                        recorded);
            }
        });
        if (!state.read()) {
            return;
        }
        Map<String, List<Op>> possible = possibleSuccesses();
        state.longRuns()
                .forEach((occurrence, run) -> run.chunks().forEach((chunk, stored) -> {
                    String key = occurrence + " chunk " + chunk;
                    if (SUCCEEDED.equals(stored.status())
                            && possible.getOrDefault(key, List.of()).stream()
                                    .noneMatch(o -> o.fence() == stored.fence())) {
                        anomalies.report(
                                Check.CHUNK_TWICE,
                                key + ": the ledger holds a success under fence " + stored.fence()
                                        + " that no recorded attempt accounts for",
                                possible.getOrDefault(key, List.of()).stream()
                                        .map(Op::brief)
                                        .toList());
                    }
                }));
        successes.forEach((chunk, recorded) -> {
            Op first = recorded.get(0);
            FinalState.LongState run = state.longRuns().get(first.occurrenceKey());
            FinalState.StoredChunk stored = run == null ? null : run.chunks().get(first.chunk());
            if (stored == null || !SUCCEEDED.equals(stored.status()) || stored.fence() != first.fence()) {
                anomalies.report(
                        Check.CHUNK_TWICE,
                        chunk + ": recorded as succeeded under fence " + first.fence() + ", and the ledger holds "
                                + stored,
                        List.of(first.brief()));
            }
        });
    }

    /**
     * The chunk attempts that may have recorded a success: answered so, a success whose answer was lost
     * (ERROR), or a success whose intent a halted process left unanswered (its record was in flight).
     */
    private Map<String, List<Op>> possibleSuccesses() {
        Stream<Op> answered = ops(Op.Kind.CHUNK).stream()
                .filter(o -> (is(o, RECORDED) && SUCCEEDED.equals(o.status()))
                        || (is(o, Op.ERROR) && SUCCEEDED.equals(o.outcome())));
        return Stream.concat(answered, unansweredIntents().filter(o -> SUCCEEDED.equals(o.outcome())))
                .collect(Collectors.groupingBy(LongChecks::chunkKey));
    }

    /**
     * The chunk records sent (CHUNK_INTENT) that no CHUNK line of their process answers (same t0), in a
     * process that halted itself (KILL): only a halt may cut a call off from its answer. An intent left
     * unanswered by a process that did not halt is the recording's fault, not counted here: the ledger
     * success it might explain is then reported.
     */
    private Stream<Op> unansweredIntents() {
        Set<String> halted = ops(Op.Kind.KILL).stream().map(Op::proc).collect(Collectors.toSet());
        Set<String> answers =
                ops(Op.Kind.CHUNK).stream().map(o -> o.proc() + " " + o.t0()).collect(Collectors.toSet());
        return ops(Op.Kind.CHUNK_INTENT).stream()
                .filter(o -> halted.contains(o.proc()))
                .filter(o -> !answers.contains(o.proc() + " " + o.t0()));
    }

    // ------------------------------------------------------------------ (3) chunk side effects

    private void chunkEffects() {
        Map<String, List<Op>> byChunk = ops(Op.Kind.CHUNK_EFFECT).stream()
                .collect(Collectors.groupingBy(LongChecks::chunkKey, TreeMap::new, Collectors.toList()));
        byChunk.forEach((chunk, writes) -> {
            List<Op> landed = writes.stream()
                    .filter(w -> is(w, Op.APPLIED))
                    .sorted(Comparator.comparingLong(Op::seq))
                    .toList();
            Op highest = null;
            for (int i = 0; i < landed.size(); i++) {
                Op w = landed.get(i);
                if (i > 0 && Objects.equals(landed.get(i - 1).seq(), w.seq())) {
                    anomaly(
                            Check.CHUNK_EFFECT_STALE,
                            chunk + ": two side effects landed as write " + w.seq(),
                            List.of(landed.get(i - 1), w));
                }
                if (highest != null && w.fence() < highest.fence()) {
                    anomaly(
                            Check.CHUNK_EFFECT_STALE,
                            chunk + ": a side effect with fence " + w.fence() + " landed after one with fence "
                                    + highest.fence(),
                            List.of(highest, w));
                }
                if (highest == null || w.fence() > highest.fence()) {
                    highest = w;
                }
            }
            for (Op w : writes) {
                if (is(w, Op.REFUSED) && w.seenFence() <= w.fence()) {
                    anomaly(
                            Check.CHUNK_EFFECT_STALE,
                            chunk + ": the fence guard refused fence " + w.fence() + " over stored fence "
                                    + w.seenFence(),
                            List.of(w));
                }
            }
        });
        if (!state.read()) {
            return;
        }
        state.longRuns().forEach((occurrence, run) -> {
            for (String chunk : union(run.chunks().keySet(), run.effects().keySet(), byChunk, occurrence)) {
                String key = occurrence + " chunk " + chunk;
                List<Op> writes = byChunk.getOrDefault(key, List.of());
                FinalState.DomainItem item = run.effects().get(chunk);
                long landed = writes.stream().filter(w -> is(w, Op.APPLIED)).count();
                long unknown = writes.stream().filter(w -> is(w, Op.ERROR)).count();
                long stored = item == null ? 0 : item.seq();
                if (stored < landed || stored > landed + unknown) {
                    anomalies.report(
                            Check.CHUNK_EFFECT_STALE,
                            key + ": the chunk's item counts " + stored + " landed side effects, the history " + landed
                                    + " (and " + unknown + " unknown)",
                            List.of());
                }
                FinalState.StoredChunk record = run.chunks().get(chunk);
                if (record == null || !SUCCEEDED.equals(record.status())) {
                    continue;
                }
                boolean workLanded = writes.stream()
                        .anyMatch(w -> w.fence() == record.fence() && (is(w, Op.APPLIED) || is(w, Op.ERROR)));
                if (!workLanded || item == null || item.fence() < record.fence()) {
                    anomalies.report(
                            Check.CHUNK_EFFECT_STALE,
                            key + ": recorded as succeeded under fence " + record.fence() + ", its side effect "
                                    + (workLanded ? "landed" : "never landed") + " under that fence and its item"
                                    + " holds " + item,
                            writes.stream().map(Op::brief).toList());
                }
            }
        });
    }

    private static Set<String> union(
            Set<String> recorded, Set<String> effects, Map<String, List<Op>> byChunk, String occurrence) {
        Set<String> all = new java.util.TreeSet<>(recorded);
        all.addAll(effects);
        byChunk.values().stream()
                .flatMap(List::stream)
                .filter(o -> o.occurrenceKey().equals(occurrence))
                .forEach(o -> all.add(o.chunk()));
        return all;
    }

    // ------------------------------------------------------------------ (4) a success has every chunk

    private void completeness() {
        Map<String, List<Op>> possible = possibleSuccesses();
        for (Op done : ops(Op.Kind.COMPLETE)) {
            if (!is(done, "Completed") || !SUCCEEDED.equals(done.status())) {
                continue;
            }
            int planned = ops(Op.Kind.EXEC_NOTE).stream()
                    .filter(n -> n.occurrenceKey().equals(done.occurrenceKey()) && !is(n, Op.ERROR))
                    .filter(n -> n.attempt() != null)
                    .mapToInt(Op::attempt)
                    .max()
                    .orElse(-1);
            if (planned < 0
                    && ops(Op.Kind.EXEC_START).stream()
                            .noneMatch(s -> s.occurrenceKey().equals(done.occurrenceKey()))) {
                continue; // a short job's occurrence
            }
            long before = possible.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(done.occurrenceKey() + " chunk "))
                    .filter(e -> e.getValue().stream().anyMatch(o -> o.t0() < done.t0()))
                    .count();
            if (planned < 0 || before < planned) {
                anomalies.report(
                        Check.LONG_INCOMPLETE,
                        done.occurrenceKey() + ": completed SUCCEEDED with " + before + " of " + Math.max(0, planned)
                                + " planned chunks recorded as succeeded before",
                        List.of(done.brief()));
            }
        }
        if (!state.read()) {
            return;
        }
        state.longRuns().forEach((occurrence, run) -> {
            FinalState.StoredRun stored = state.runs().get(occurrence);
            if (stored == null || !SUCCEEDED.equals(stored.status())) {
                return;
            }
            long succeeded = run.chunks().values().stream()
                    .filter(c -> SUCCEEDED.equals(c.status()))
                    .count();
            if (run.planned() < 0 || succeeded < run.planned()) {
                anomalies.report(
                        Check.LONG_INCOMPLETE,
                        occurrence + " is stored SUCCEEDED with " + succeeded + " of " + Math.max(0, run.planned())
                                + " planned chunks recorded as succeeded",
                        List.of(String.valueOf(run)));
            }
        });
    }

    // ------------------------------------------------------------------ figures

    private void figures(Map<String, Long> figures) {
        figures.put(
                "long.extensions",
                ops(Op.Kind.EXTEND).stream().filter(o -> is(o, Op.OK)).count());
        figures.put(
                "long.executionsStarted",
                ops(Op.Kind.EXEC_START).stream().filter(o -> is(o, STARTED)).count());
        figures.put(
                "long.startsAlreadyExisting",
                ops(Op.Kind.EXEC_START).stream()
                        .filter(o -> is(o, "AlreadyExists"))
                        .count());
        figures.put(
                "long.chunkSuccessesRecorded",
                ops(Op.Kind.CHUNK).stream()
                        .filter(o -> is(o, RECORDED) && SUCCEEDED.equals(o.status()))
                        .count());
        figures.put(
                "long.chunkFailuresRecorded",
                ops(Op.Kind.CHUNK).stream()
                        .filter(o -> is(o, RECORDED) && !SUCCEEDED.equals(o.status()))
                        .count());
        figures.put(
                "long.chunksAlreadySucceeded",
                ops(Op.Kind.CHUNK).stream()
                        .filter(o -> is(o, "AlreadySucceeded"))
                        .count());
        figures.put("long.chunkRecordsCutOff", unansweredIntents().count());
        figures.put(
                "long.chunkEffectsLanded",
                ops(Op.Kind.CHUNK_EFFECT).stream()
                        .filter(o -> is(o, Op.APPLIED))
                        .count());
        figures.put(
                "long.chunkEffectsRefused",
                ops(Op.Kind.CHUNK_EFFECT).stream()
                        .filter(o -> is(o, Op.REFUSED))
                        .count());
        Set<String> longJobs = ops(Op.Kind.EXEC_START).stream().map(Op::job).collect(Collectors.toSet());
        longJobs.addAll(ops(Op.Kind.EXTEND).stream().map(Op::job).toList());
        figures.put(
                "long.occurrencesSucceeded",
                ops(Op.Kind.COMPLETE).stream()
                        .filter(o -> longJobs.contains(o.job()) && is(o, "Completed") && SUCCEEDED.equals(o.status()))
                        .map(Op::occurrenceKey)
                        .distinct()
                        .count());
        figures.put(
                "long.killsBeforeStart",
                ops(Op.Kind.KILL).stream()
                        .filter(o -> longJobs.contains(o.job()) && o.chunk() == null)
                        .count());
        figures.put(
                "long.killsBeforeChunkRecord",
                ops(Op.Kind.KILL).stream().filter(o -> o.chunk() != null).count());
        figures.put("long.executionsListed", (long) state.executions().size());
        figures.put(
                "long.executionsLeftRunning",
                state.executions().stream()
                        .filter(e -> "RUNNING".equals(e.status()))
                        .count());
    }

    private void anomaly(Check check, String message, List<Op> evidence) {
        anomalies.report(check, message, evidence.stream().map(Op::brief).toList());
    }
}
