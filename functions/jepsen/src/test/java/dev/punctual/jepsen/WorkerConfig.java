package dev.punctual.jepsen;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one worker or operator process is told on its command line, as {@code name=value} arguments.
 *
 * @param role {@code worker} (claims, runs, completes) or {@code operator} (turns maintenance on and off)
 * @param proc its name in the history
 * @param dir the run's directory: history files, and the {@code stop} file that ends every process early
 * @param seed its random choices (delays, outcomes, faults, kills)
 * @param skewMs its clock is the machine's plus this
 * @param faultProbability each HTTP attempt of its ledger client meets an injected fault this often
 * @param sdkRetries the SDK's default retries on (as in production) or off (every fault reaches the ledger)
 * @param mayKill whether this incarnation may halt itself between a side effect and its commit
 * @param killProbability per run, when it may
 * @param rounds occurrences per job, one per minute from {@code firstOccurrenceMs}
 * @param minHolds an operator stops, once the {@code stop} file exists, only after this many holds
 * @param overrunProbability per direct run: the job outlives its lease
 * @param failProbability per run: the job reports a failure
 * @param runtimeShare deliveries sent through PunctualRuntime instead of the ledger directly
 * @param refusedShare bad payloads sent to the runtime between deliveries
 * @param redeliveryShare stale deliveries of an older occurrence between deliveries
 * @param script {@code none}, or what the process's first direct run does whatever the dice say
 *     ({@code overrun-first}, {@code kill-first}), so every run of the suite covers both
 */
record WorkerConfig(
        String role,
        String proc,
        Path dir,
        String ledgerTable,
        String domainTable,
        long seed,
        long skewMs,
        double faultProbability,
        boolean sdkRetries,
        boolean mayKill,
        double killProbability,
        int rounds,
        long firstOccurrenceMs,
        int minHolds,
        double overrunProbability,
        double failProbability,
        double runtimeShare,
        double refusedShare,
        double redeliveryShare,
        String script) {

    static final String WORKER = "worker";
    static final String NONE = "none";
    static final String OVERRUN_FIRST = "overrun-first";
    static final String KILL_FIRST = "kill-first";
    static final String OPERATOR = "operator";

    List<String> toArgs() {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("role", role);
        all.put("proc", proc);
        all.put("dir", dir.toAbsolutePath());
        all.put("ledgerTable", ledgerTable);
        all.put("domainTable", domainTable);
        all.put("seed", seed);
        all.put("skewMs", skewMs);
        all.put("faultProbability", faultProbability);
        all.put("sdkRetries", sdkRetries);
        all.put("mayKill", mayKill);
        all.put("killProbability", killProbability);
        all.put("rounds", rounds);
        all.put("firstOccurrenceMs", firstOccurrenceMs);
        all.put("minHolds", minHolds);
        all.put("overrunProbability", overrunProbability);
        all.put("failProbability", failProbability);
        all.put("runtimeShare", runtimeShare);
        all.put("refusedShare", refusedShare);
        all.put("redeliveryShare", redeliveryShare);
        all.put("script", script);
        List<String> args = new ArrayList<>();
        all.forEach((k, v) -> args.add(k + "=" + v));
        return args;
    }

    static WorkerConfig parse(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("expected name=value, got " + arg);
            }
            m.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        return new WorkerConfig(
                req(m, "role"),
                req(m, "proc"),
                Path.of(req(m, "dir")),
                req(m, "ledgerTable"),
                req(m, "domainTable"),
                Long.parseLong(req(m, "seed")),
                Long.parseLong(req(m, "skewMs")),
                Double.parseDouble(req(m, "faultProbability")),
                Boolean.parseBoolean(req(m, "sdkRetries")),
                Boolean.parseBoolean(req(m, "mayKill")),
                Double.parseDouble(req(m, "killProbability")),
                Integer.parseInt(req(m, "rounds")),
                Long.parseLong(req(m, "firstOccurrenceMs")),
                Integer.parseInt(req(m, "minHolds")),
                Double.parseDouble(req(m, "overrunProbability")),
                Double.parseDouble(req(m, "failProbability")),
                Double.parseDouble(req(m, "runtimeShare")),
                Double.parseDouble(req(m, "refusedShare")),
                Double.parseDouble(req(m, "redeliveryShare")),
                req(m, "script"));
    }

    private static String req(Map<String, String> m, String name) {
        String value = m.get(name);
        if (value == null) {
            throw new IllegalArgumentException("missing argument " + name + "=...");
        }
        return value;
    }

    WorkerConfig incarnation(String newProc, long newSeed, boolean kills, String newScript) {
        return new WorkerConfig(
                role,
                newProc,
                dir,
                ledgerTable,
                domainTable,
                newSeed,
                skewMs,
                faultProbability,
                sdkRetries,
                kills,
                killProbability,
                rounds,
                firstOccurrenceMs,
                minHolds,
                overrunProbability,
                failProbability,
                runtimeShare,
                refusedShare,
                redeliveryShare,
                newScript);
    }
}
