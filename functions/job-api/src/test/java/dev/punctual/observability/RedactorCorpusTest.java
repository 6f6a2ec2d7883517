package dev.punctual.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Secret shapes from real formats (every value here is made up), each inside the kind of text that
 * reaches a log: an exception message, a config dump, a URL, a header. The secret must be gone and the
 * mask present.
 */
class RedactorCorpusTest {

    private static final Redactor REDACTOR = Redactor.standard();

    /** The secret part of each case; built from pieces so that no scanner mistakes this file for a leak. */
    static Stream<Arguments> corpus() {
        String aws40 = "wJalrXUtnFEMI" + "/K7MDENG/bPxRfiCYEXAMPLEKEY";
        String hex32 = "3f2a9c81d7e64b05a1c2d3e4f5a6b7c8";
        String b62 = "Zq8Lm2Nx4Pw6Rt8Yv0Ab2Cd4Ef6Gh8Ij0Kl";
        return Stream.of(
                c("env AWS secret", "AWS_SECRET_ACCESS_KEY=" + aws40, aws40),
                c("ini AWS secret", "aws_secret_access_key: " + aws40, aws40),
                c("camel AWS secret", "{secretAccessKey=" + aws40 + ", region=eu-central-1}", aws40),
                c("AWS session token", "AWS_SESSION_TOKEN=FwoGZXIvYXdzE" + b62, "FwoGZXIvYXdzE" + b62),
                c("AWS access key id", "using AKIA" + "IOSFODNN7EXAMPLE for s3", "AKIA" + "IOSFODNN7EXAMPLE"),
                c("AWS temporary key id", "ASIA" + "Y34FZKBOKMUTVV7A expired", "ASIA" + "Y34FZKBOKMUTVV7A"),
                c("postgres URL", "connect postgres://app:S3cretPw@db.internal:5432/app failed", "S3cretPw"),
                c("mysql URL", "jdbc:mysql://root:hunter2x@10.0.0.5/x", "hunter2x"),
                c("redis URL", "redis://default:r3d1sPass@cache:6379", "r3d1sPass"),
                c("amqp URL", "amqps://user:mqS3cret@broker/vhost", "mqS3cret"),
                c("JDBC query password", "jdbc:postgresql://db/app?user=app&password=pgPw123&ssl=true", "pgPw123"),
                c("ADO.NET password", "Server=db;Database=app;User Id=sa;Password=Ad0NetPw;", "Ad0NetPw"),
                c("passphrase", "gpg: passphrase=correct-horse-battery", "correct-horse-battery"),
                c("pass", "login user=bob pass=b0bsPass", "b0bsPass"),
                c("passwd", "passwd=Pwd1234567", "Pwd1234567"),
                c("unterminated double quote", "password=\"unterminated-secret", "unterminated-secret"),
                c("unterminated single quote", "token='unterminated-token-value", "unterminated-token-value"),
                c("JSON token", "{\"access_token\": \"at-" + b62 + "\"}", "at-" + b62),
                c("JSON refresh token", "{\"refresh_token\":\"rt-" + b62 + "\"}", "rt-" + b62),
                c("client secret", "client_secret=cs-" + hex32, "cs-" + hex32),
                c("api key header", "X-Api-Key: ak-" + hex32, "ak-" + hex32),
                c("bearer header", "Authorization: Bearer " + b62, b62),
                c("basic header", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA=="),
                c("cookie", "Cookie: session=sess-" + hex32, "sess-" + hex32),
                c("session id", "sessionId=" + hex32, hex32),
                c("signature", "X-Signature: sig-" + hex32, "sig-" + hex32),
                c("private key field", "private_key=pk-" + hex32, "pk-" + hex32),
                c("GitHub classic token", "git clone failed with gh" + "p_" + b62, "gh" + "p_" + b62),
                c("GitHub OAuth token", "gh" + "o_" + b62, "gh" + "o_" + b62),
                c("GitHub fine-grained", "github_" + "pat_11ABCDEFG0" + b62, "github_" + "pat_11ABCDEFG0" + b62),
                c("GitLab token", "glpat" + "-" + "xY12ab34CD56ef78GH90", "glpat" + "-" + "xY12ab34CD56ef78GH90"),
                c("Slack bot token", "xox" + "b-1234567890-0987654321-" + "AbCdEfGhIjKl", "xox" + "b-1234567890"),
                c("Slack user token", "xox" + "p-1234567890-1234567890-abcdefabcdef", "xox" + "p-1234567890"),
                c("Slack webhook", "POST https://hooks.slack.com/services/T000/B000/XXXXXXXX", "T000/B000/XXXXXXXX"),
                c("Stripe live key", "stripe: sk" + "_live_" + b62, "sk" + "_live_" + b62),
                c("Stripe restricted key", "rk" + "_live_" + b62, "rk" + "_live_" + b62),
                c("Stripe test key", "sk" + "_test_" + b62, "sk" + "_test_" + b62),
                c("OpenAI key", "OPENAI: sk" + "-proj-" + b62, "sk" + "-proj-" + b62),
                c(
                        "Google API key",
                        "key AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
                        "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
                c("npm token", "//registry/:_authToken=npm_" + b62, "npm_" + b62),
                c("PyPI token", "pypi" + "-AgEIcHlwaS5vcmcCJGI" + b62 + b62, "AgEIcHlwaS5vcmcCJGI" + b62),
                c(
                        "SendGrid key",
                        "SG" + ".ngeVfQFYQlKU0ufo8x5d1A.TwL2iGABf9DHoTf-09kqeF8tAmbihYzrnopKc-1s5cr",
                        "TwL2iGABf9DHoTf"),
                c("Mailgun key", "key" + "-" + hex32, "key" + "-" + hex32),
                c("Azure storage", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=" + b62 + "==;", b62),
                c("Azure SAS", "Endpoint=sb://x/;SharedAccessKeyName=root;SharedAccessKey=" + b62, b62),
                c(
                        "JWT",
                        "id_hint eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJlLXZhbHVl",
                        "eyJzdWIiOiIxMjM0In0"),
                c(
                        "PEM key",
                        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA" + b62 + "\n-----END RSA PRIVATE KEY-----",
                        b62),
                c("cut PEM key", "key: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg" + b62, b62),
                c("credentials field", "db_credentials=" + hex32, hex32),
                c("password in YAML", "  password: yamlPw9876", "yamlPw9876"),
                // Issue 24, item 14e: shapes the red team got through in errors, results, logs and events.
                c("pwd", "login failed: pwd=pw-" + hex32, "pw-" + hex32),
                c(
                        "key name longer than 40 characters",
                        "my_very_long_service_account_database_password_for_prod=" + hex32,
                        hex32),
                c("secret word inside the key", "DB_PASSWORD_PROD=" + hex32, hex32),
                c("redis URL without a user", "connect redis://:r3d1sPass@cache:6379 refused", "r3d1sPass"),
                c("escaped JSON inside a JSON string", "{\"body\":\"{\\\"password\\\":\\\"" + b62 + "\\\"}\"}", b62),
                c("double-escaped JSON", "{\\\\\\\"password\\\\\\\":\\\\\\\"" + b62 + "\\\\\\\"}", b62),
                c("URL-encoded password", "body=user%3Dbob%26password%3D" + b62, b62),
                c("URL-encoded token", "redirect?state=token%3D" + b62 + "%26x%3D1", b62),
                c("CLI option and value", "exec: psql --password " + b62 + " --host db", b62),
                // Found by probing beyond the red team's list.
                c("MySQL client variable", "MYSQL_PWD=" + hex32, hex32),
                c("API key with a stage suffix", "API_KEY_PROD=" + hex32, hex32),
                c("camelCase secret word inside the key", "{passwordProd=" + hex32 + "}", hex32),
                c("dotted config key", "db.password.prod=" + hex32, hex32),
                c("URL-encoded quotes and colon", "q=%7B%22token%22%3A%22" + b62 + "%22%7D", b62),
                c("URL-encoded space after the colon", "token%3A%20" + b62, b62),
                c("Python dict", "{'password': '" + b62 + "'}", b62),
                c("CLI token option", "--token " + b62, b62),
                c("CLI api-key option", "--api-key " + b62, b62),
                c("bearer as a key", "Bearer: " + b62, b62),
                c("auth query parameter", "GET /db.json?auth=" + b62 + "&print=pretty", b62),
                c("XML element", "<password>" + b62 + "</password>", b62),
                c("XML element with a namespace", "<ns:ApiKey>" + b62 + "</ns:ApiKey>", b62),
                c("Go-style assignment", "password := \"" + b62 + "\"", b62),
                c("fat-arrow assignment", "password => " + b62, b62),
                c("odd casing of the key", "PassWord=" + hex32 + " PASSword=" + hex32, hex32),
                // Pinned with the probe, already masked here before: each spelling of the usual names, and
                // the CLI's --password=x (it leaked through the CLI's refusal line, which now redacts).
                c("CLI option with =", "exec: psql --password=" + b62 + " --host db", b62),
                c("secret_key", "SECRET_KEY=" + hex32, hex32),
                c("bearer, lower case", "authorization: bearer " + b62, b62),
                c("BEARER, upper case", "BEARER " + b62, b62),
                c("api-key header", "api-key: " + hex32, hex32),
                // Issue 40, item 5: shapes the red team got through.
                c("secret word then a number", "login failed: password1=" + hex32, hex32),
                c("secret word, underscore, number", "DB_PASSWORD_2=" + hex32 + " TOKEN3: " + b62, hex32),
                c("number before the next word", "db_password2_prod=" + hex32, hex32),
                c("URL password holding @", "connect postgres://u:p@ss@h/db failed", "p@ss"),
                c("URL password holding two @", "redis://app:S3c@r@t!@cache:6379", "S3c@r@t!"),
                c("bare AWS secret access key", "aws configure: " + aws40 + " rejected", aws40),
                c("bare AWS secret access key, quoted", "creds ('AKIA" + "IOSFODNN7EXAMPLE', '" + aws40 + "')", aws40),
                c("bare AWS secret access key, last", "secret " + aws40, aws40),
                c("mysql -p glued", "exec: mysql -u root -pS3cretPw app", "S3cretPw"),
                c("mysqldump -p glued, quoted, by path", "/usr/bin/mysqldump -uroot -p'S3 cret' db", "S3 cret"),
                c("mysql -p then a space", "sh -c \"mysql -h db -p S3cretPw app\"", "S3cretPw"),
                c("mariadb-dump -p", "mariadb-dump --user=app -pMaria9Pw appdb > x.sql", "Maria9Pw"),
                c("second mysql after &&", "mysql -pOnePw1 a && mysqladmin -pTwoPw2 ping", "TwoPw2"));
    }

    private static Arguments c(String name, String text, String secret) {
        return Arguments.of(name, text, secret);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void text_withASecretOfAKnownShape_masksIt(String name, String text, String secret) {
        String out = REDACTOR.text(text);

        assertThat(out).doesNotContain(secret).contains(Redactor.MASK);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void line_withASecretOfAKnownShape_masksItAndStaysOneLine(String name, String text, String secret) {
        String out = REDACTOR.line(text);

        assertThat(out).doesNotContain(secret).doesNotContain("\n").doesNotContain("\r");
    }

    /**
     * Ordinary operational text keeps what an operator needs to diagnose: an IAM denial's action and
     * resource, counts, configuration that merely mentions a secret word inside a longer key.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {
                "User: arn:aws:sts::123456789012:assumed-role/punctual-dev/x is not authorized to perform:"
                        + " secretsmanager:GetSecretValue on resource: arn:aws:secretsmanager:eu-central-1:"
                        + "123456789012:secret:db-AbCdEf",
                "pass: 3, skip: 1, fail: 0",
                "max_tokens=1024 temperature=0.2",
                "tokens_used=12 of 4000",
                "secretsmanager:ListSecrets was throttled",
                "Unable to load credentials from any of the providers in the chain",
                // A secret word inside a key, followed by a word that says the key describes the secret.
                "token_count=3 password_length=12 token_expires_at=2026-11-30T14:00:00Z",
                "secret_arn=arn:aws:secretsmanager:eu-central-1:123456789012:secret:db-AbCdEf",
                "secret_name=prod/db token_url=https://auth.example.com/oauth2/token",
                "oauth=enabled author=bob",
                "basic authentication failed for the bearer of bad news",
                // Issue 40: what the new shapes must leave alone.
                "commit 3f2a9c81d7e64b05a1c2d3e4f5a6b7c83f2a9c81 merged, tree 3F2A9C81D7E64B05A1C2D3E4F5A6B7C83F2A9C81",
                "class AbstractSingletonProxyFactoryBeanHolders failed, id abcdefghijklmnopqrstuvwxyz0123456789abcd",
                "payload Zm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFyZm9vYmFy and base64 ending in padding: QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0NTY3==",
                "docker run -p8080:80 app; mkdir -p /tmp/x; ssh -p 2222 host; tar -pxf a.tar",
                "mysql: [Warning] Using a password on the command line interface can be insecure.",
                "jdbc:mysql://db:3306/app?useSSL=true mysql -u app -P 3306 -h db appdb",
                "http://host:8080/x@y https://example.com/a:b@c postgres://app@db.internal:5432/app",
                "password_length1=12 token_count2=3 passwords=3",
            })
    void text_ofOrdinaryOperationalText_isUnchanged(String text) {
        assertThat(REDACTOR.text(text)).isEqualTo(text);
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {
                "Authorization=Token abcdefghijklmnop1234",
                "Authorization: Digest abcdefghijklmnop1234",
                "{\"password\":\"a\\\"bcdefgh1234\"}",
            })
    void text_withASchemeOrAnEscapedQuote_masksTheWholeValue(String text) {
        assertThat(REDACTOR.text(text)).doesNotContain("abcdefghijklmnop1234", "bcdefgh1234");
    }

    /**
     * Adversarial text cannot make redaction slow: the patterns are linear and the text is cut before
     * they run. The units repeat what each pattern starts on: key characters, separators, escaped and
     * URL-encoded quotes, options, XML tags, e-mail, phone and card pieces, push-token prefixes. The
     * timeout only guards against a hang (it was minutes for 64 KB); it measures nothing.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {
                "token-",
                "a-",
                "x.",
                "ab://",
                "password=x ",
                "\\\"",
                "%2522",
                "--a ",
                "<password>",
                "a@a.",
                "+1 ",
                "4111 ",
                "0",
                "APA91b:",
                "aaaaaaaa:",
                "ab://a:p@",
                "mysql -p ",
                "-p -p mysql ",
                "Ab1/",
                "DE89 ",
                "123-45-"
            })
    void text_ofAQuarterMegabyteOfRepeatedKeyCharacters_finishes(String unit) {
        String adversarial = unit.repeat(256 * 1024 / unit.length());

        String out = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                java.time.Duration.ofSeconds(30), () -> REDACTOR.text(adversarial));

        assertThat(out).endsWith("[truncated]");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {
                "bypass=1 compass: north passenger=3",
                "report for 2026-11-30 finished in 1.2 s",
                "sent 3 reports to tenants in eu-central-1",
            })
    void text_withWordsThatMerelyContainPass_isUnchanged(String text) {
        assertThat(REDACTOR.text(text)).isEqualTo(text);
    }

    /**
     * Inputs that would make a backtracking pattern for the issue 40 shapes take minutes, redacted as
     * they must be: a URL's user info of thousands of {@code @}, a base64 run far longer than a key, a
     * MySQL command of thousands of {@code -p}, IBAN-like and SSN-like groups without end. The result is
     * asserted, not the time.
     */
    @org.junit.jupiter.api.Test
    void text_ofLongAdversarialInputForTheIssue40Shapes_isRedactedAsExpected() {
        Redactor wide = new Redactor(1_000_000);
        String ats = "postgres://u:" + "p@".repeat(100_000) + " done";
        String base64 = "Ab1/".repeat(50_000);
        String mysql = "mysql" + " -pS3cret".repeat(20_000);
        String groups = "DE89" + " 3704".repeat(50_000);
        String ssns = "123-45-".repeat(50_000);

        // The user info is read 256 characters at most: the password is masked to the last @ within them.
        assertThat(wide.text(ats)).isEqualTo("postgres://u:" + Redactor.MASK + "@" + "p@".repeat(99_872) + " done");
        assertThat(wide.text(base64)).isEqualTo(base64);
        assertThat(wide.text(mysql)).isEqualTo("mysql" + (" -p" + Redactor.MASK).repeat(20_000));
        assertThat(wide.text(groups)).isEqualTo(groups);
        assertThat(wide.text(ssns)).isEqualTo(ssns);
    }

    @org.junit.jupiter.api.Test
    void text_ofAUrlPasswordHoldingAt_keepsTheHostAndMasksThePasswordWhole() {
        assertThat(REDACTOR.text("connect postgres://u:p@ss@h/db failed"))
                .isEqualTo("connect postgres://u:[REDACTED]@h/db failed");
    }

    @org.junit.jupiter.api.Test
    void text_ofAMysqlCommand_masksItsPasswordOption_andKeepsTheRest() {
        assertThat(REDACTOR.text("mysql -u root -pS3cret -h db app; ls -p x"))
                .isEqualTo("mysql -u root -p[REDACTED] -h db app; ls -p x");
        assertThat(REDACTOR.text("mysql -u root -p S3cret app")).isEqualTo("mysql -u root -p [REDACTED] app");
    }
}
