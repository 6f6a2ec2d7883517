package dev.punctual.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The lease items of a lock group that admits up to N runners at once (decision 0051). Slot 0 is the
 * group's own item {@code lock#<group>}, exactly as for a group of capacity 1, so a group declared
 * without a capacity keeps today's single item and nothing is migrated; slot {@code i > 0} is the item
 * {@code lock#<group>#<i+1>}. A group or job id never contains {@code #} ({@link Ids}), so a slot's id
 * can never be another group's.
 */
public final class LockSlots {

    /**
     * The largest capacity accepted. A claim that finds every slot busy has sent one rejected write per
     * slot (1 write unit each) before it answers busy, and does so on every poll of its bounded wait;
     * maintenance takes every slot one write at a time. Ten keeps both small.
     */
    public static final int MAX_CAPACITY = 10;

    private static final Pattern SLOT = Pattern.compile("([A-Za-z0-9_.:-]{1,200})#([0-9]{1,2})");

    private LockSlots() {}

    /** The item id of slot {@code index} (0-based) of {@code group}: the group itself for slot 0. */
    public static String slotId(String group, int index) {
        if (index < 0 || index >= MAX_CAPACITY) {
            throw new IllegalArgumentException("slot index must be 0 to " + (MAX_CAPACITY - 1) + ", was " + index);
        }
        return index == 0 ? group : group + "#" + (index + 1);
    }

    /** Every slot's item id of a group of this capacity, slot 0 first. */
    public static List<String> slotIds(String group, int capacity) {
        requireCapacity(capacity, "capacity of lock group " + group);
        List<String> ids = new ArrayList<>(capacity);
        for (int i = 0; i < capacity; i++) {
            ids.add(slotId(group, i));
        }
        return List.copyOf(ids);
    }

    /** The group a slot's item id belongs to: the id itself for slot 0 (and for any plain group). */
    public static String groupOf(String lockItem) {
        java.util.regex.Matcher m = SLOT.matcher(lockItem);
        return m.matches() ? m.group(1) : lockItem;
    }

    /** Whether the id names a slot beyond the group's own item ({@code group#2} and on). */
    public static boolean isExtraSlot(String lockItem) {
        java.util.regex.Matcher m = SLOT.matcher(lockItem);
        if (!m.matches()) {
            return false;
        }
        int number = Integer.parseInt(m.group(2));
        return number >= 2 && number <= MAX_CAPACITY && !m.group(2).startsWith("0");
    }

    /** A lock item's id: a group (or job) id, or an extra slot of one; otherwise the error names both forms. */
    public static String requireLockItem(String id, String what) {
        if (id != null && isExtraSlot(id)) {
            return id;
        }
        if (id == null || !id.matches("[A-Za-z0-9_.:-]{1,200}")) {
            throw new IllegalArgumentException(what + " must be a lock group id ([A-Za-z0-9_.:-]{1,200}) or one of"
                    + " its slots (<group>#2 to <group>#" + MAX_CAPACITY + ") but was '" + id + "'");
        }
        return id;
    }

    /** A capacity from 1 to {@link #MAX_CAPACITY}; otherwise the error names the field and the bounds. */
    public static int requireCapacity(int capacity, String what) {
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException(
                    what + " must be 1 to " + MAX_CAPACITY + " (runners of the group at once), was " + capacity);
        }
        return capacity;
    }
}
