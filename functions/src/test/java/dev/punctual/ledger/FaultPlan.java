package dev.punctual.ledger;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;

/** A seeded, thread-safe schedule of faults, with a tally of what was injected. */
public final class FaultPlan {

    private final Random random;
    private final double probability;
    private final Map<Fault, Integer> injected = new EnumMap<>(Fault.class);
    private boolean enabled = true;

    public FaultPlan(long seed, double probability) {
        this.random = new Random(seed);
        this.probability = probability;
    }

    public synchronized Fault next() {
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
