package dev.punctual.infra;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Counts the requests a DynamoDB client sends and prices each in request units by DynamoDB's documented
 * rules, since the emulator's capacity figures do not follow them (moto reports 0.5 for any UpdateItem and
 * nothing for a transaction). Sizes: attribute name bytes plus value bytes (a string its UTF-8 length, a
 * number about one byte per two significant digits plus one). A standard write costs one unit per started
 * KB of the larger of the item before and after; a transaction two per item (a ConditionCheck is billed on
 * the item it checks); a consistent GetItem one read unit per started 4 KB (an absent item: one); a Query
 * the total size of the items it returns, rounded up to 4 KB once per request (half for an eventually
 * consistent read). The items before and after a write are read with {@code reader}, a client without this
 * interceptor.
 */
final class LedgerCapacity implements ExecutionInterceptor {

    private static final int KB = 1024;
    private static final int READ_UNIT_BYTES = 4 * KB;

    /** The sizes of the items a write touches, as they were before it. */
    private static final ExecutionAttribute<List<Touched>> TOUCHED = new ExecutionAttribute<>("punctual.touched");

    /**
     * One request.
     *
     * @param operation the DynamoDB operation, e.g. {@code TransactWriteItems}
     * @param failed whether it was refused (a failed condition: billed as if applied)
     * @param readUnits read request units
     * @param writeUnits write request units
     * @param items the items it wrote, checked or returned
     * @param bytes their sizes: the larger of before and after for a write, the sum returned for a read
     */
    record Sent(String operation, boolean failed, double readUnits, int writeUnits, int items, int bytes) {}

    /** An item a write touches: its key, its size before, and whether it is billed at the transactional rate. */
    private record Touched(Map<String, AttributeValue> key, int before, boolean transactional) {}

    private final DynamoDbClient reader;
    private final String table;
    private final List<Sent> sent = new CopyOnWriteArrayList<>();

    LedgerCapacity(DynamoDbClient reader, String table) {
        this.reader = reader;
        this.table = table;
    }

    @Override
    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
        List<Touched> touched = new ArrayList<>();
        switch (context.request()) {
            case PutItemRequest put -> touched.add(touched(key(put.item()), false));
            case UpdateItemRequest update -> touched.add(touched(update.key(), false));
            case TransactWriteItemsRequest transaction -> {
                for (TransactWriteItem item : transaction.transactItems()) {
                    touched.add(touched(keyOf(item), true));
                }
            }
            default -> {}
        }
        attributes.putAttribute(TOUCHED, touched);
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
        switch (context.response()) {
            case GetItemResponse get -> {
                int bytes = get.hasItem() ? bytes(get.item()) : 0;
                boolean consistent = Boolean.TRUE.equals(((GetItemRequest) context.request()).consistentRead());
                sent.add(new Sent(operation, false, readUnits(bytes, consistent), 0, get.hasItem() ? 1 : 0, bytes));
            }
            case QueryResponse query -> {
                int bytes =
                        query.items().stream().mapToInt(LedgerCapacity::bytes).sum();
                boolean consistent = Boolean.TRUE.equals(((QueryRequest) context.request()).consistentRead());
                sent.add(new Sent(operation, false, readUnits(bytes, consistent), 0, query.count(), bytes));
            }
            default -> sent.add(write(operation, false, attributes));
        }
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        sent.add(write(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME), true, attributes));
    }

    private Sent write(String operation, boolean failed, ExecutionAttributes attributes) {
        List<Touched> touched = attributes.getAttribute(TOUCHED);
        if (touched == null || touched.isEmpty()) {
            // A read that failed (a throttle, a fault): no unit is billed for it; kept so it is seen.
            return new Sent(operation, failed, 0, 0, 0, 0);
        }
        int units = 0;
        int bytes = 0;
        for (Touched t : touched) {
            int size = failed ? t.before() : Math.max(t.before(), sizeNow(t.key()));
            units += (t.transactional() ? 2 : 1) * Math.max(1, (size + KB - 1) / KB);
            bytes += size;
        }
        return new Sent(operation, failed, 0, units, touched.size(), bytes);
    }

    private Touched touched(Map<String, AttributeValue> key, boolean transactional) {
        return new Touched(key, sizeNow(key), transactional);
    }

    private int sizeNow(Map<String, AttributeValue> key) {
        GetItemResponse item = reader.getItem(b -> b.tableName(table).key(key).consistentRead(true));
        return item.hasItem() ? bytes(item.item()) : 0;
    }

    private static Map<String, AttributeValue> keyOf(TransactWriteItem item) {
        if (item.put() != null) {
            return key(item.put().item());
        }
        if (item.update() != null) {
            return item.update().key();
        }
        if (item.conditionCheck() != null) {
            return item.conditionCheck().key();
        }
        if (item.delete() != null) {
            return item.delete().key();
        }
        throw new IllegalArgumentException("a transaction item of no known kind: " + item);
    }

    private static Map<String, AttributeValue> key(Map<String, AttributeValue> item) {
        return Map.of(
                LedgerTables.PARTITION_KEY, item.get(LedgerTables.PARTITION_KEY),
                LedgerTables.SORT_KEY, item.get(LedgerTables.SORT_KEY));
    }

    private static double readUnits(int bytes, boolean consistent) {
        int units = Math.max(1, (bytes + READ_UNIT_BYTES - 1) / READ_UNIT_BYTES);
        return consistent ? units : units / 2d;
    }

    /** An item's size by DynamoDB's rules. */
    static int bytes(Map<String, AttributeValue> item) {
        return item.entrySet().stream()
                .mapToInt(e -> utf8(e.getKey()) + valueBytes(e.getValue()))
                .sum();
    }

    private static int valueBytes(AttributeValue value) {
        if (value.s() != null) {
            return utf8(value.s());
        }
        if (value.n() != null) {
            String digits = new BigDecimal(value.n())
                    .stripTrailingZeros()
                    .unscaledValue()
                    .abs()
                    .toString();
            return (digits.length() + 1) / 2 + 1;
        }
        if (value.bool() != null || Boolean.TRUE.equals(value.nul())) {
            return 1;
        }
        if (value.hasM()) {
            return 3 + value.m().size() + bytes(value.m());
        }
        if (value.hasL()) {
            return 3
                    + value.l().size()
                    + value.l().stream().mapToInt(LedgerCapacity::valueBytes).sum();
        }
        throw new IllegalArgumentException("no size rule here for " + value);
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    List<Sent> sent() {
        return List.copyOf(sent);
    }

    void clear() {
        sent.clear();
    }
}
