package dev.punctual.job;

import dev.punctual.PunctualException;
import dev.punctual.ledger.LockSlots;
import dev.punctual.time.Blackout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every job of the deployment, in manifest order, and the port their external messages leave through.
 * Read by the Lambda handler (which job to run) and by the CDK app (which schedules and pools to
 * deploy); nothing about a job is written anywhere else.
 */
public final class JobCatalog {

    private final Map<String, JobDefinition> jobs = new LinkedHashMap<>();
    private final Map<String, JobTable> tables = new LinkedHashMap<>();
    private final Delivery delivery;
    private final List<MaintenanceCondition> conditions;
    private final Map<String, Integer> capacities;

    public JobCatalog(List<JobDefinition> definitions) {
        this(definitions, null, List.of(), Map.of());
    }

    private JobCatalog(
            List<JobDefinition> definitions,
            Delivery delivery,
            List<MaintenanceCondition> conditions,
            Map<String, Integer> capacities) {
        this.delivery = delivery;
        this.conditions = List.copyOf(conditions);
        this.capacities = Map.copyOf(capacities);
        Map<String, FunctionPool> pools = new LinkedHashMap<>();
        for (JobDefinition job : definitions) {
            if (jobs.putIfAbsent(job.id(), job) != null) {
                throw new CatalogDefinitionException(
                        "job catalog: id '" + job.id() + "' appears twice; ids must be unique");
            }
            FunctionPool known = pools.putIfAbsent(job.pool().name(), job.pool());
            if (known != null && !known.equals(job.pool())) {
                throw new CatalogDefinitionException(
                        "job catalog: pool '" + job.pool().name() + "' of job " + job.id()
                                + " differs from the pool of that name used before (" + known + ")");
            }
            job.tables().forEach(table -> declare(job, table));
        }
        jobs.values().forEach(this::refuseSharingAnEntityLeaseGroup);
        Set<String> conditionNames = new TreeSet<>();
        for (MaintenanceCondition condition : this.conditions) {
            if (!conditionNames.add(condition.name())) {
                throw new CatalogDefinitionException("job catalog: maintenance condition '" + condition.name()
                        + "' appears twice; expected each name once");
            }
            declare("maintenance condition " + condition.name(), condition.table());
        }
        this.capacities.forEach(this::checkCapacity);
    }

    /**
     * A group of capacity N (decision 0051) is a named group its member jobs share. Not a job's own id: a
     * job's own item carries its one slot and cursor, and two occurrences of one job never run at once. Not
     * a per-entity job's or a long job's: their entities' leases and a long occurrence's hours-long tenure
     * read the group's one item (the holds' entity note, the long sweep), which N slots would split.
     */
    private void checkCapacity(String group, Integer capacity) {
        String field = "job catalog: lock group '" + group + "': capacity " + capacity;
        if (capacity < 1 || capacity > LockSlots.MAX_CAPACITY) {
            throw new CatalogDefinitionException(field + " is not accepted; expected 1 to " + LockSlots.MAX_CAPACITY
                    + " runners of the group at once");
        }
        List<JobDefinition> members =
                jobs.values().stream().filter(j -> j.lockGroup().equals(group)).toList();
        if (members.isEmpty()) {
            throw new CatalogDefinitionException(field + ": no job has that group; expected one of " + lockGroups());
        }
        if (capacity == 1) {
            return;
        }
        if (jobs.containsKey(group)) {
            throw new CatalogDefinitionException(field + " is not accepted for a group named after job " + group
                    + " (its own item keeps one occurrence in flight); expected a group id that is no job's id");
        }
        for (JobDefinition member : members) {
            if (member.isPerEntity() || member.longRun() != null) {
                throw new CatalogDefinitionException(field + " is not accepted: member " + member.id() + " is a "
                        + (member.isPerEntity() ? "per-entity" : "long") + " job; expected capacity 1 for a group with"
                        + " one, or another group for " + member.id());
            }
        }
    }

    /**
     * A per-entity job whose entities take their own leases (decision 0029, 5) holds its group only
     * against maintenance, never against another job's run. Another job naming that group as its lock
     * group would expect to be kept apart from the entities' runs and would not be, so the catalog is
     * refused rather than giving either job less exclusion than it declared.
     */
    private void refuseSharingAnEntityLeaseGroup(JobDefinition other) {
        JobDefinition entityJob = jobs.get(other.lockGroup());
        if (entityJob == null
                || entityJob == other
                || !entityJob.isPerEntity()
                || entityJob.perEntity().oneAtATime()
                || !entityJob.lockGroup().equals(entityJob.id())) {
            return;
        }
        throw new CatalogDefinitionException("job catalog: job " + other.id() + ": lockGroup '" + other.lockGroup()
                + "' is the group of per-entity job " + entityJob.id() + ", whose entities take leases of their"
                + " own and would not be kept apart from " + other.id() + "; expected another lock group, or"
                + " perEntity(EntityJob.parameters(...).sharingOneLease()) on " + entityJob.id()
                + " so that its entities share the group's one lease");
    }

    /**
     * One declaration per table name, and no two tables read from one variable: the CDK app creates a
     * table per name and sets each variable once per function.
     */
    private void declare(JobDefinition job, JobTable table) {
        declare("job " + job.id(), table);
    }

    private void declare(String user, JobTable table) {
        JobTable known = tables.putIfAbsent(table.name(), table);
        if (known != null && !known.equals(table)) {
            throw new CatalogDefinitionException("job catalog: table '" + table.name() + "' used by " + user
                    + " is declared differently from the table of that name used before (" + known
                    + "); declare it once and use that declaration in every job");
        }
        for (JobTable other : tables.values()) {
            if (!other.name().equals(table.name())
                    && other.environmentVariable().equals(table.environmentVariable())) {
                throw new CatalogDefinitionException("job catalog: table '" + table.name() + "' of " + user
                        + ": environmentVariable '" + table.environmentVariable() + "' is already the variable of"
                        + " table '" + other.name() + "'; expected a variable of its own");
            }
        }
    }

    public static JobCatalog of(JobDefinition... definitions) {
        return new JobCatalog(List.of(definitions));
    }

    /**
     * The same jobs, whose messages leave through the given port in stages that enable external
     * delivery (elsewhere the runtime hands jobs a suppressed port instead).
     */
    public JobCatalog withDelivery(Delivery port) {
        return new JobCatalog(jobs(), Objects.requireNonNull(port, "port"), conditions, capacities);
    }

    /**
     * The same jobs, each with a blackout window (decision 0034): stage-wide, for every job of the catalog
     * (the runtime's own built-in jobs, added later, are not held off).
     */
    public JobCatalog withBlackout(Blackout window) {
        Objects.requireNonNull(window, "window");
        return new JobCatalog(
                jobs.values().stream()
                        .map(j -> j.withExclusions(List.of(window)))
                        .toList(),
                delivery,
                conditions,
                capacities);
    }

    /** The same jobs, those of one lock group with a blackout window (decision 0034). */
    public JobCatalog withBlackout(String lockGroup, Blackout window) {
        Objects.requireNonNull(window, "window");
        if (!lockGroups().contains(lockGroup)) {
            throw new CatalogDefinitionException("job catalog: blackout for lock group '" + lockGroup
                    + "': no job has that" + " group; expected one of " + lockGroups());
        }
        return new JobCatalog(
                jobs.values().stream()
                        .map(j -> j.lockGroup().equals(lockGroup) ? j.withExclusions(List.of(window)) : j)
                        .toList(),
                delivery,
                conditions,
                capacities);
    }

    /** The real delivery port, if the catalog declares one. */
    public Optional<Delivery> delivery() {
        return Optional.ofNullable(delivery);
    }

    /** These jobs followed by more (the runtime's built-ins), with the same delivery port. */
    public JobCatalog plus(List<JobDefinition> more) {
        List<JobDefinition> all = new ArrayList<>(jobs.values());
        all.addAll(more);
        return new JobCatalog(all, delivery, conditions, capacities);
    }

    /**
     * The same jobs, held off while the condition finds data (decision 0036, 5): each occurrence any
     * job runs first evaluates every condition, and records {@code SKIP MAINTENANCE} with the condition's
     * reason while one holds. Its table is declared as a job's is (the stage creates it, and every pool's
     * function is given its name and {@code dynamodb:Query} on it).
     */
    public JobCatalog withMaintenanceCondition(MaintenanceCondition condition) {
        Objects.requireNonNull(condition, "condition");
        List<MaintenanceCondition> more = new ArrayList<>(conditions);
        more.add(condition);
        return new JobCatalog(jobs(), delivery, more, capacities);
    }

    /**
     * The same jobs, with the lock group admitting up to {@code capacity} of its jobs' runs at once (decision
     * 0051): 1 to {@link LockSlots#MAX_CAPACITY}, for a named group shared by jobs with one schedule each.
     * Undeclared, a group has capacity 1 (one runner at a time, one lease item).
     */
    public JobCatalog withGroupCapacity(String lockGroup, int capacity) {
        Objects.requireNonNull(lockGroup, "lockGroup");
        Map<String, Integer> more = new TreeMap<>(capacities);
        more.put(lockGroup, capacity);
        return new JobCatalog(jobs(), delivery, conditions, more);
    }

    /** How many runs of the group's jobs may hold it at once: 1 unless declared. */
    public int groupCapacity(String lockGroup) {
        return capacities.getOrDefault(lockGroup, 1);
    }

    /**
     * Every lease item of every lock group, sorted: what maintenance takes (and gives back). A group of
     * capacity 1 is its own item; a group of capacity N adds its slots {@code group#2} to {@code group#N}.
     */
    public List<String> lockItems() {
        TreeSet<String> items = new TreeSet<>();
        for (String group : lockGroups()) {
            items.addAll(LockSlots.slotIds(group, groupCapacity(group)));
        }
        return List.copyOf(items);
    }

    /** The maintenance conditions every occurrence evaluates first, in declaration order. */
    public List<MaintenanceCondition> maintenanceConditions() {
        return conditions;
    }

    public List<JobDefinition> jobs() {
        return List.copyOf(jobs.values());
    }

    /**
     * The jobs with one schedule of their own: what a stage deploys a schedule, a missed-run alarm and a
     * watchdog check for. A per-entity job's schedules are created at runtime, one per entity, and are
     * none of these (docs/entities.md).
     */
    public List<JobDefinition> scheduled() {
        return jobs().stream().filter(job -> !job.isPerEntity()).toList();
    }

    public Optional<JobDefinition> find(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** The job, or a fault naming the known ids. */
    public JobDefinition require(String id) {
        return find(id).orElseThrow(() -> new PunctualException("unknown job '" + id + "'; known: " + ids()));
    }

    public List<String> ids() {
        return List.copyOf(jobs.keySet());
    }

    /** Every lock group, sorted: maintenance takes them all. */
    public List<String> lockGroups() {
        TreeSet<String> groups = new TreeSet<>();
        jobs.values().forEach(j -> groups.add(j.lockGroup()));
        return List.copyOf(groups);
    }

    /** The pools in first-use order. */
    public List<FunctionPool> pools() {
        Map<String, FunctionPool> pools = new LinkedHashMap<>();
        jobs.values().forEach(j -> pools.putIfAbsent(j.pool().name(), j.pool()));
        return new ArrayList<>(pools.values());
    }

    /** Every table the jobs declare, in first-use order. */
    public List<JobTable> tables() {
        return List.copyOf(tables.values());
    }

    /**
     * The variables a function of this catalog reads its tables' names from, given those names by
     * declared table name (a stage's outputs, an emulator's tables); tables not named are left out.
     */
    public Map<String, String> tableEnvironment(Map<String, String> namesByTable) {
        Map<String, String> env = new LinkedHashMap<>();
        for (JobTable table : tables.values()) {
            String name = namesByTable.get(table.name());
            if (name != null) {
                env.put(table.environmentVariable(), name);
            }
        }
        return env;
    }

    /** The tables the jobs of one pool use, in first-use order: what the pool's function is granted. */
    public List<JobTable> tablesOf(String pool) {
        Map<String, JobTable> used = new LinkedHashMap<>();
        inPool(pool).forEach(j -> j.tables().forEach(t -> used.putIfAbsent(t.name(), t)));
        return List.copyOf(used.values());
    }

    /** Jobs hosted by one pool. */
    public List<JobDefinition> inPool(String pool) {
        return jobs.values().stream().filter(j -> j.pool().name().equals(pool)).toList();
    }

    /** Whether the group is shared by more than one job (claims then cost one more request). */
    public boolean isShared(String group) {
        return jobs.values().stream().filter(j -> j.lockGroup().equals(group)).count() > 1;
    }
}
