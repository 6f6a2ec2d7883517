package dev.punctual.handler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.WeakHashMap;
import org.crac.Context;
import org.crac.Resource;
import org.junit.jupiter.api.Test;

class PrimingTest {

    /** A CRaC context that holds its resources weakly, as the Lambda runtime's does. */
    private static final class WeakContext extends Context<Resource> {
        final Map<Resource, Boolean> resources = new WeakHashMap<>();

        @Override
        public void register(Resource resource) {
            resources.put(resource, Boolean.TRUE);
        }

        @Override
        public void beforeCheckpoint(Context<? extends Resource> context) {}

        @Override
        public void afterRestore(Context<? extends Resource> context) {}
    }

    @Test
    void register_withAContextThatHoldsItsHooksWeakly_keepsTheHookThroughGarbageCollection() throws Exception {
        WeakContext context = new WeakContext();
        Priming.register(null, null, context);

        // Nothing of the test refers to the hook: only the context (weakly) and Priming itself.
        for (int i = 0; i < 20 && !context.resources.isEmpty(); i++) {
            System.gc();
            Thread.sleep(10);
        }

        assertThat(context.resources).as("the hook the snapshot needs").hasSize(1);
        assertThat(context.resources.keySet()).containsExactly(Priming.registered());
    }
}
