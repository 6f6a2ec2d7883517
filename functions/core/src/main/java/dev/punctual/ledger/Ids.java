package dev.punctual.ledger;

import java.util.regex.Pattern;

/** Job and lock-group ids become parts of DynamoDB keys, so they are kept to a separator-free alphabet. */
public final class Ids {
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_.:-]{1,200}");

    private Ids() {}

    public static String require(String id, String what) {
        if (id == null || !SAFE.matcher(id).matches()) {
            throw new IllegalArgumentException(what + " must match " + SAFE + " but was '" + id + "'");
        }
        return id;
    }
}
