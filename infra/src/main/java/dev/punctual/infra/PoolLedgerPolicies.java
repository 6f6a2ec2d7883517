package dev.punctual.infra;

import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.stage.StageConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.services.iam.IRole;
import software.amazon.awscdk.services.iam.ManagedPolicy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.constructs.Construct;

/**
 * What one pool's role may do on the ledger, item by item ({@link PoolLedgerKeys}), with the actions the
 * ledger adapter ({@code DynamoDbLedgerStore}) calls: its jobs' run items (conditional puts, consistent
 * reads), their own lock items (conditional updates, reads), the lease attributes of the shared groups'
 * items, and reads of the other items its jobs wait for or watch. The adapter's transactions (the
 * completion, an abandoned slot) are those puts and updates, which DynamoDB authorises item by item, so
 * a commit can put only this pool's run items and update only its lock items. It never deletes or
 * scans, so neither is granted; it sends a transaction's ConditionCheck only for a long job's records (on
 * the lease's lock item, decision 0039); it queries only the due
 * index (decision 0031), from the watchdog's pool, so only that pool may, on that index only. A pool
 * hosting a long job may also put, update, read and query its long jobs' execution and chunk records
 * (decision 0039), and nothing else of theirs. A pool with a per-entity job may put its completed
 * one-time entities' notes ({@code done#<job>#*}, decision 0047), in the completion's transaction, and
 * never read them.
 *
 * <p>Customer managed policies attached to the role, not its inline policy: the keys grow with the
 * pool's jobs (about 31 characters a job with ids of 8), IAM allows a role 10,240 characters of inline
 * policy in all but {@value #MAX_POLICIES} managed policies of {@value #MAX_POLICY_CHARACTERS} each, so
 * a pool of some 700 jobs (the 2,000-job catalog of the cost model) still fits. The keys are split over
 * statements and the statements packed into as few policies as hold them; synth refuses a pool that
 * would need more.
 */
final class PoolLedgerPolicies extends Construct {

    /** IAM's limit on one managed policy's document, whitespace not counted. */
    static final int MAX_POLICY_CHARACTERS = 6_144;

    /** IAM's default quota of managed policies attached to one role (20 on request). */
    static final int MAX_POLICIES = 10;

    /**
     * A statement's characters besides its keys, with the ledger's deployed ARN (about 110 characters)
     * and the lease attribute list (about 130): generous, since synth cannot see the deployed names.
     */
    static final int STATEMENT_CHARACTERS = 500;

    /** At most this many characters of keys in one statement, so a statement always fits a policy. */
    static final int KEYS_PER_STATEMENT = 5_000;

    /** What the ledger adapter does with a long job's records (decision 0039): notes, chunk attempts, reads. */
    static final List<String> LONG_RUN_ACTIONS =
            List.of("dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:GetItem", "dynamodb:Query");

    private static final String LEADING_KEYS = "dynamodb:LeadingKeys";
    private static final String ATTRIBUTES = "dynamodb:Attributes";

    private final List<ManagedPolicy> policies = new ArrayList<>();

    PoolLedgerPolicies(Construct scope, String id, String ledgerArn, PoolLedgerKeys keys, IRole role) {
        super(scope, id);
        List<List<Grant>> packed = packed(grants(keys));
        if (packed.size() > MAX_POLICIES) {
            throw new StageConfigException("pool " + keys.pool() + ": the ledger keys of its "
                    + keys.jobItems().size() + " jobs and " + keys.groupItems().size() + " shared groups need "
                    + packed.size() + " managed policies of " + MAX_POLICY_CHARACTERS + " characters; expected at most "
                    + MAX_POLICIES + " (IAM's default quota of managed policies per role): spread its jobs over more"
                    + " pools (docs/deploy.md, \"Function roles\")");
        }
        for (int i = 0; i < packed.size(); i++) {
            policies.add(ManagedPolicy.Builder.create(this, "Policy" + i)
                    .description("Punctual pool " + keys.pool() + ": its jobs' ledger items (" + (i + 1) + " of "
                            + packed.size() + ")")
                    .statements(packed.get(i).stream()
                            .map(grant -> grant.statement(ledgerArn))
                            .toList())
                    .roles(List.of(role))
                    .build());
        }
        if (keys.queriesDueIndex()) {
            policies.get(0)
                    .addStatements(PolicyStatement.Builder.create()
                            .actions(List.of("dynamodb:Query"))
                            .resources(List.of(ledgerArn + "/index/" + LedgerTable.DUE_INDEX))
                            .build());
        }
    }

    List<ManagedPolicy> policies() {
        return policies;
    }

    /** The statements on the ledger, each limited to at most {@link #KEYS_PER_STATEMENT} of keys. */
    static List<Grant> grants(PoolLedgerKeys keys) {
        List<Grant> grants = new ArrayList<>();
        grants.addAll(split(List.of("dynamodb:PutItem", "dynamodb:GetItem"), keys.runItems(), List.of()));
        grants.addAll(split(List.of("dynamodb:UpdateItem", "dynamodb:GetItem"), keys.jobItems(), List.of()));
        // A per-entity job's entities have items of their own under its id ({@code run#job:acme}): the
        // same rights as the job's, by pattern, since the entities are not known at synth.
        grants.addAll(split(List.of("dynamodb:PutItem", "dynamodb:GetItem"), keys.entityRunItems(), List.of(), LIKE));
        grants.addAll(
                split(List.of("dynamodb:UpdateItem", "dynamodb:GetItem"), keys.entityJobItems(), List.of(), LIKE));
        // A one-time entity's completion puts its completed note (decision 0047) in the same transaction:
        // a Put only, on its job's done#<job>#<NN> partitions; the operator reads them, the pool never does.
        grants.addAll(split(List.of("dynamodb:PutItem"), keys.completedItems(), List.of(), LIKE));
        // A long job's execution note and chunk records (decision 0039): written under the claim's lease,
        // read back consistently, and a chunk partition queried for the finish's tally.
        grants.addAll(split(LONG_RUN_ACTIONS, keys.longRunItems(), List.of(), LIKE));
        // ...each write one transaction whose ConditionCheck reads the claim's lease on its group's item.
        grants.addAll(split(List.of("dynamodb:ConditionCheckItem"), keys.longRunLeaseItems(), List.of(), LIKE));
        // A shared group's item may be another pool's job's own item (a group named after that job):
        // this pool may write its lease, never its cursor or slot. ReturnValues stays unrestricted: the
        // adapter asks for ALL_NEW, and this pool may read the whole item anyway.
        // Its lease take reads the group's pause (NOT_PAUSED, decision 0040), which IAM counts as named.
        List<String> groupAttributes = new ArrayList<>(LedgerLayout.LEASE_ATTRIBUTES);
        groupAttributes.addAll(LedgerLayout.PAUSE_READ_ATTRIBUTES);
        grants.addAll(split(List.of("dynamodb:UpdateItem"), keys.groupItems(), groupAttributes));
        if (keys.readsEveryItem()) {
            grants.add(new Grant(
                    List.of("dynamodb:GetItem"),
                    "ForAllValues:StringLike",
                    List.of(LedgerLayout.LOCK_ITEMS, LedgerLayout.RUN_ITEMS),
                    List.of()));
        } else {
            grants.addAll(split(List.of("dynamodb:GetItem"), keys.reads(), List.of()));
        }
        return grants;
    }

    private static final String EQUALS = "ForAllValues:StringEquals";
    private static final String LIKE = "ForAllValues:StringLike";

    private static List<Grant> split(List<String> actions, List<String> keys, List<String> attributes) {
        return split(actions, keys, attributes, EQUALS);
    }

    private static List<Grant> split(
            List<String> actions, List<String> keys, List<String> attributes, String operator) {
        List<Grant> grants = new ArrayList<>();
        List<String> chunk = new ArrayList<>();
        int characters = 0;
        for (String key : keys) {
            if (!chunk.isEmpty() && characters + Grant.quoted(key) > KEYS_PER_STATEMENT) {
                grants.add(new Grant(actions, operator, chunk, attributes));
                chunk = new ArrayList<>();
                characters = 0;
            }
            chunk.add(key);
            characters += Grant.quoted(key);
        }
        if (!chunk.isEmpty()) {
            grants.add(new Grant(actions, operator, chunk, attributes));
        }
        return grants;
    }

    /** Statements into as few policies as hold them, in order (first fit keeps a small pool in one). */
    static List<List<Grant>> packed(List<Grant> grants) {
        List<List<Grant>> policies = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        for (Grant grant : grants) {
            int at = 0;
            while (at < policies.size() && sizes.get(at) + grant.characters() > MAX_POLICY_CHARACTERS) {
                at++;
            }
            if (at == policies.size()) {
                policies.add(new ArrayList<>());
                sizes.add(100); // {"Version":"2012-10-17","Statement":[...]}
            }
            policies.get(at).add(grant);
            sizes.set(at, sizes.get(at) + grant.characters());
        }
        return policies;
    }

    /**
     * One statement: the actions on items whose partition key is one of {@code keys} (or matches one,
     * for StringLike), naming only {@code attributes} when given.
     */
    record Grant(List<String> actions, String operator, List<String> keys, List<String> attributes) {

        Grant {
            actions = List.copyOf(actions);
            keys = List.copyOf(keys);
            attributes = List.copyOf(attributes);
        }

        /** Each value as the document carries it: quoted, with a separator. */
        static int quoted(String value) {
            return value.length() + 3;
        }

        int characters() {
            return STATEMENT_CHARACTERS
                    + keys.stream().mapToInt(Grant::quoted).sum()
                    + attributes.stream().mapToInt(Grant::quoted).sum();
        }

        PolicyStatement statement(String ledgerArn) {
            Map<String, Object> conditions = new LinkedHashMap<>();
            Map<String, List<String>> byKey = new LinkedHashMap<>();
            byKey.put(LEADING_KEYS, keys);
            if (!attributes.isEmpty()) {
                // Both under ForAllValues:StringEquals: every key and every attribute named must be listed.
                byKey.put(ATTRIBUTES, attributes);
            }
            conditions.put(operator, byKey);
            return PolicyStatement.Builder.create()
                    .actions(actions)
                    .resources(List.of(ledgerArn))
                    .conditions(conditions)
                    .build();
        }
    }
}
