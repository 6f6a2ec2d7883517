package dev.punctual.handler;

import dev.punctual.runtime.PunctualRuntime;
import dev.punctual.runtime.ResultJson;
import java.util.Map;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * SnapStart priming: before the snapshot, exercise Jackson and the SDK's request path so the restored
 * function does not pay for class loading on its first real invocation. It reads one key that never
 * exists and writes nothing.
 */
final class Priming implements Resource {

    private static final String NO_SUCH_PK = "punctual#priming";

    private final PunctualRuntime runtime;
    private final Wiring.Clients clients;

    private Priming(PunctualRuntime runtime, Wiring.Clients clients) {
        this.runtime = runtime;
        this.clients = clients;
    }

    static void register(PunctualRuntime runtime, Wiring.Clients clients) {
        Core.getGlobalContext().register(new Priming(runtime, clients));
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
        ResultJson.render(dev.punctual.runtime.InvocationResult.invalid(
                runtime.services().flags().stage(),
                new dev.punctual.runtime.InvalidPayload("PRIMING", null, "priming")));
        String table = System.getenv(dev.punctual.stage.StageResources.LEDGER_TABLE);
        if (table == null) {
            return;
        }
        try {
            clients.dynamo()
                    .getItem(b -> b.tableName(table)
                            .key(Map.of(
                                    "pk",
                                            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(
                                                    NO_SUCH_PK),
                                    "sk",
                                            software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(
                                                    NO_SUCH_PK))));
        } catch (software.amazon.awssdk.core.exception.SdkException e) {
            // Priming is an optimisation; a failed read must not fail the snapshot.
        }
    }
}
