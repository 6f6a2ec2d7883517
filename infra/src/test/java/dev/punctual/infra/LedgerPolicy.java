package dev.punctual.infra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import software.amazon.awscdk.assertions.Template;

/**
 * The statements of one synthesised policy that concern the ledger table, evaluated the way IAM
 * evaluates an allow-only policy for one item of a DynamoDB request (docs: "Using IAM policy conditions
 * for fine-grained access control"). It knows the operators and keys Punctual's policies use and fails
 * on any other, so it can never allow by not understanding a condition.
 */
final class LedgerPolicy {

    private final List<Map<String, Object>> statements;

    private LedgerPolicy(List<Map<String, Object>> statements) {
        this.statements = List.copyOf(statements);
    }

    /**
     * The ledger's statements of every policy attached to a role: its inline policy
     * ({@code AWS::IAM::Policy}) and the managed policies ({@code AWS::IAM::ManagedPolicy}) naming it.
     */
    static LedgerPolicy ofRole(Template template, String roleLogicalId, String ledgerLogicalId) {
        Map<String, Object> role = Map.of("Ref", roleLogicalId);
        List<Map<String, Object>> found = new ArrayList<>();
        for (String type : List.of("AWS::IAM::Policy", "AWS::IAM::ManagedPolicy")) {
            Templates.properties(template, type).values().stream()
                    .filter(properties -> listed(properties.get("Roles")).contains(role))
                    .forEach(properties -> found.addAll(onLedger(properties, ledgerLogicalId)));
        }
        if (found.isEmpty()) {
            throw new AssertionError("no statement on the ledger in a policy of role " + roleLogicalId);
        }
        return new LedgerPolicy(found);
    }

    /** The ledger's statements of the managed policy whose logical id starts so (the operator's, attached by hand). */
    static LedgerPolicy ofManagedPolicy(Template template, String prefix, String ledgerLogicalId) {
        List<Map<String, Object>> found = new ArrayList<>();
        Templates.properties(template, "AWS::IAM::ManagedPolicy").forEach((id, properties) -> {
            if (id.startsWith(prefix)) {
                found.addAll(onLedger(properties, ledgerLogicalId));
            }
        });
        if (found.isEmpty()) {
            throw new AssertionError("no statement on the ledger in a managed policy " + prefix + "*");
        }
        return new LedgerPolicy(found);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> onLedger(Map<String, Object> properties, String ledgerLogicalId) {
        Map<String, Object> ledger = Map.of("Fn::GetAtt", List.of(ledgerLogicalId, "Arn"));
        List<Map<String, Object>> all =
                (List<Map<String, Object>>) ((Map<String, Object>) properties.get("PolicyDocument")).get("Statement");
        List<Map<String, Object>> onLedger = new ArrayList<>();
        for (Map<String, Object> statement : all) {
            if (!"Allow".equals(statement.get("Effect"))) {
                throw new AssertionError("only Allow statements are evaluated here: " + statement);
            }
            if (listed(statement.get("Resource")).contains(ledger)) {
                onLedger.add(statement);
            }
        }
        return onLedger;
    }

    /** Whether some statement allows this item access. */
    boolean allows(LedgerRequests.Access access) {
        return statements.stream().anyMatch(s -> allows(s, access));
    }

    /** Every action any statement allows on the ledger, under whatever condition. */
    Set<String> actions() {
        return statements.stream()
                .flatMap(s -> listed(s.get("Action")).stream())
                .map(String::valueOf)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * For each statement allowing {@code action}, the partition keys (or patterns) it is limited to, or
     * {@code <any>} when it names none.
     */
    @SuppressWarnings("unchecked")
    List<List<String>> leadingKeysOf(String action) {
        List<List<String>> keys = new ArrayList<>();
        for (Map<String, Object> statement : statements) {
            if (!listed(statement.get("Action")).contains(action)) {
                continue;
            }
            Map<String, Map<String, Object>> conditions =
                    (Map<String, Map<String, Object>>) statement.getOrDefault("Condition", Map.of());
            List<String> found = null;
            for (Map<String, Object> byKey : conditions.values()) {
                if (byKey.containsKey("dynamodb:LeadingKeys")) {
                    found = strings(byKey.get("dynamodb:LeadingKeys"));
                }
            }
            keys.add(found == null ? List.of("<any>") : found);
        }
        return keys;
    }

    @SuppressWarnings("unchecked")
    private static boolean allows(Map<String, Object> statement, LedgerRequests.Access access) {
        if (!listed(statement.get("Action")).contains(access.action())) {
            return false;
        }
        Map<String, Map<String, Object>> conditions =
                (Map<String, Map<String, Object>>) statement.getOrDefault("Condition", Map.of());
        for (Map.Entry<String, Map<String, Object>> operator : conditions.entrySet()) {
            for (Map.Entry<String, Object> key : operator.getValue().entrySet()) {
                if (!holds(operator.getKey(), key.getKey(), strings(key.getValue()), access)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean holds(String operator, String key, List<String> values, LedgerRequests.Access access) {
        Set<String> context = switch (key) {
            case "dynamodb:LeadingKeys" -> Set.of(access.partitionKey());
            case "dynamodb:Attributes" -> access.attributes();
            case "dynamodb:ReturnValues" -> Set.of(access.returnValues());
            default -> throw new AssertionError("condition key not evaluated here: " + key);
        };
        return switch (operator) {
            // True for an empty context too, as in IAM: each value the request carries must match.
            case "ForAllValues:StringEquals" -> values.containsAll(context);
            case "ForAllValues:StringLike" ->
                context.stream().allMatch(v -> values.stream().anyMatch(p -> like(p, v)));
            case "StringEquals", "StringEqualsIfExists" ->
                context.size() == 1 && values.contains(context.iterator().next());
            default -> throw new AssertionError("condition operator not evaluated here: " + operator);
        };
    }

    /** IAM's StringLike: {@code *} any run of characters, {@code ?} one, the rest literally. */
    static boolean like(String pattern, String value) {
        StringBuilder regex = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            regex.append(
                    switch (c) {
                        case '*' -> ".*";
                        case '?' -> ".";
                        default -> Pattern.quote(String.valueOf(c));
                    });
        }
        return value.matches(regex.toString());
    }

    private static List<Object> listed(Object value) {
        return value instanceof List<?> list ? new ArrayList<>(list) : value == null ? List.of() : List.of(value);
    }

    private static List<String> strings(Object value) {
        return listed(value).stream().map(String::valueOf).toList();
    }
}
