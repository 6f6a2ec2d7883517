package dev.punctual.handler;

import dev.punctual.stage.StageResources;
import java.util.Map;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * SnapStart priming: before the snapshot, wait (a bounded time) for the warm-up, which rehearsed a
 * delivery's SDK calls without the network ({@link WarmUp}), and send one request through the real
 * client, so the restored function does not pay for either on its first real invocation. It reads one
 * key that never exists and writes nothing.
 */
final class Priming implements Resource {

    private static final String NO_SUCH_PK = "punctual#priming";

    /**
     * The registered hook, held for the life of the function. CRaC contexts may hold their resources
     * weakly (the Lambda runtime's context keeps them in a {@code WeakHashMap}): a hook that only the
     * context refers to can be collected before the snapshot, and priming then silently never runs.
     */
    private static volatile Priming registered;

    private final Wiring.Clients clients;
    private final WarmUp warmUp;

    private Priming(Wiring.Clients clients, WarmUp warmUp) {
        this.clients = clients;
        this.warmUp = warmUp;
    }

    static void register(Wiring.Clients clients, WarmUp warmUp) {
        register(clients, warmUp, Core.getGlobalContext());
    }

    /** Registers with {@code context} and keeps the hook reachable from this class. */
    static Priming register(Wiring.Clients clients, WarmUp warmUp, Context<Resource> context) {
        Priming priming = new Priming(clients, warmUp);
        registered = priming;
        context.register(priming);
        return priming;
    }

    /** The hook registered last, or null before {@link #register}. */
    static Priming registered() {
        return registered;
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        prime();
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        // Nothing to refresh: no unique value was created at init, and clients reconnect on demand.
    }

    void prime() {
        // The snapshot should hold the warm-up's work done, not half of it.
        warmUp.await();
        String table = System.getenv(StageResources.LEDGER_TABLE);
        if (table == null) {
            return;
        }
        try {
            clients.dynamo()
                    .getItem(b -> b.tableName(table)
                            .key(Map.of(
                                    "pk", AttributeValue.fromS(NO_SUCH_PK),
                                    "sk", AttributeValue.fromS(NO_SUCH_PK))));
        } catch (SdkException e) {
            // Priming is an optimisation; a failed read must not fail the snapshot.
        }
    }
}
