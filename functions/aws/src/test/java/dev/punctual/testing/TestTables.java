package dev.punctual.testing;

import java.util.Locale;
import java.util.UUID;

/** Table names that no other test class, and no other run against a shared endpoint, can collide with. */
public final class TestTables {

    private static final int MAX_NAME = 255;

    private TestTables() {}

    /** {@code punctual-<TestClass>-<purpose>-<random>}, within DynamoDB's name rules. */
    public static String uniqueName(Class<?> testClass, String purpose) {
        String random = UUID.randomUUID().toString().substring(0, 8);
        String name = "punctual-" + testClass.getSimpleName() + "-" + purpose + "-" + random;
        String safe = name.replaceAll("[^A-Za-z0-9_.-]", "-").toLowerCase(Locale.ROOT);
        return safe.length() <= MAX_NAME ? safe : safe.substring(safe.length() - MAX_NAME);
    }
}
