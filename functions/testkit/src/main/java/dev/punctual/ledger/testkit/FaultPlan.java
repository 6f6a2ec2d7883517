package dev.punctual.ledger.testkit;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** A seeded, thread-safe schedule of faults, with a tally of what was injected. */
public final class FaultPlan {

    private final Random random;
    private final double probability;
    private final Map<Fault, Integer> injected = new EnumMap<>(Fault.class);
    private final Deque<Fault> script = new ArrayDeque<>();
    private boolean enabled = true;

    /** These faults first, one per request, in order; then none. */
    public static FaultPlan scripted(Fault... faults) {
        FaultPlan plan = new FaultPlan(0, 0);
        plan.script.addAll(List.of(faults));
        return plan;
    }

    public FaultPlan(long seed, double probability) {
        this.random = new Random(seed);
        this.probability = probability;
    }

    public synchronized Fault next() {
        if (!script.isEmpty()) {
            Fault fault = script.poll();
            injected.merge(fault, 1, Integer::sum);
            return fault;
        }
        if (!enabled || random.nextDouble() >= probability) {
            return Fault.NONE;
        }
        Fault fault = Fault.values()[1 + random.nextInt(Fault.values().length - 1)];
        injected.merge(fault, 1, Integer::sum);
        return fault;
    }

    public synchronized void disable() {
        enabled = false;
    }

    public synchronized int injected(Fault fault) {
        return injected.getOrDefault(fault, 0);
    }
}
