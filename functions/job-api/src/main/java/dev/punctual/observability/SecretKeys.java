package dev.punctual.observability;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Whether the key of a {@code key=value} in free text names a secret. The key is read as words, so
 * {@code dbPasswordProd}, {@code DB_PASSWORD_PROD}, {@code db-password.prod} and {@code --db-password}
 * are read alike, at any length.
 */
final class SecretKeys {

    /** Secret words, as they read once a key is split into lower-case words joined by {@code _}. */
    static final String WORDS = "password|passwd|pwd|passphrase|secret|token|bearer|api_?key|access_?key"
            + "|authorization|credentials?|private_?key|session_?id|cookie|signature";

    /**
     * A key that ends in a secret word, glued to what comes before or not ({@code pgpassword},
     * {@code aws_secret_access_key}, {@code _authToken}), optionally followed by {@code _key},
     * {@code _id} or {@code _value}, then a number or not ({@code password1}, {@code DB_PASSWORD_2}). {@code max_tokens} and {@code secretsmanager} end elsewhere. And
     * {@code auth} as a word of its own ({@code ?auth=...}, {@code basic_auth}), not in {@code oauth}.
     */
    private static final Pattern ENDS_IN_WORD =
            Pattern.compile("(?:" + WORDS + ")(?:_?(?:key|id|value))?(?:_?\\d{1,4})?$|(?:^|_)auth(?:_?\\d{1,4})?$");

    /**
     * A secret word as a whole word in the middle of a key ({@code db_password_prod},
     * {@code service_password_for_prod}), unless the next word says the key is about the secret rather
     * than the secret itself: {@code password_length=12}, {@code token_expires_at=...},
     * {@code secret_arn=arn:...} keep their values, which an operator needs.
     */
    private static final Pattern WORD_INSIDE =
            Pattern.compile("(?:^|_)(?:" + WORDS + ")\\d{0,4}_(?!(?:count|length|len|size"
                    + "|type|kind|format|ttl|expiry|expires|expiration|age|policy|name|arn|url|uri|endpoint|domain|path"
                    + "|file|used|limit|hint|required|enabled|changed|updated|created|rotated|rotation|version|provider"
                    + "|source|scope|status|timeout|stdin)\\d{0,4}(?:_|$))");

    /** camelCase and acronym boundaries: {@code dbPassword}, {@code DBPassword}. */
    private static final Pattern CASE_BOUNDARY = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])");

    private SecretKeys() {}

    static boolean named(String key) {
        String words = CASE_BOUNDARY
                .matcher(key)
                .replaceAll("_")
                .replace('-', '_')
                .replace('.', '_')
                .toLowerCase(Locale.ROOT);
        // Glued too, for casings the word split gets wrong: PassWord, PASSword, SESSIONID.
        String glued = words.replace("_", "");
        return ENDS_IN_WORD.matcher(words).find()
                || ENDS_IN_WORD.matcher(glued).find()
                || WORD_INSIDE.matcher(words).find();
    }
}
