package dev.punctual.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {

    private final Redactor redactor = Redactor.standard();

    @ParameterizedTest
    @ValueSource(
            strings = {
                "connect failed: password=hunter2-secret-value",
                "connect failed: PASSWORD: 'hunter2-secret-value'",
                "{\"token\": \"hunter2-secret-value\"}",
                "header Authorization: Bearer hunter2-secret-value",
                "api_key=hunter2-secret-value&user=bob",
                "GET /x?apikey=hunter2-secret-value HTTP/1.1",
            })
    void text_withSecretAssignment_masksTheValueAndKeepsTheName(String text) {
        String out = redactor.text(text);

        assertThat(out).doesNotContain("hunter2-secret-value").contains(Redactor.MASK);
    }

    @Test
    void text_withAwsAccessKeyIdOrJwt_masksThemByShape() {
        String jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        String out = redactor.text("key AKIAIOSFODNN7EXAMPLE and session " + jwt);

        assertThat(out).doesNotContain("AKIAIOSFODNN7EXAMPLE").doesNotContain(jwt);
    }

    @Test
    void text_withoutSecrets_isUnchanged() {
        assertThat(redactor.text("report for 2026-11-29 sent to 3 tenants"))
                .isEqualTo("report for 2026-11-29 sent to 3 tenants");
    }

    @Test
    void text_longerThanMaximum_isCutAndMarked() {
        String out = new Redactor(20).text("x".repeat(100));

        assertThat(out).hasSize(20 + "…[truncated]".length()).endsWith("[truncated]");
    }

    @Test
    void fields_withSecretNamesAtAnyDepth_maskTheirValues() {
        Map<String, Object> out = redactor.fields(Map.of(
                "rows",
                3,
                "dbPassword",
                "hunter2",
                "nested",
                Map.of("clientSecret", "s3cr3t", "note", "password=hunter3"),
                "list",
                List.of("token=abcdef123456")));

        assertThat(out.toString()).doesNotContain("hunter2", "s3cr3t", "hunter3", "abcdef123456");
        assertThat(out).containsEntry("rows", 3).containsEntry("dbPassword", Redactor.MASK);
    }

    @Test
    void line_escapesFormatCharactersAndLoneSurrogates_andKeepsWhatIsSeen() {
        String out =
                redactor.line("--zone Europe/Berlin\u202E\u200B\u200F\u2066\uFEFF x\uD800y\uDC00 \uDB40\uDC01 é 😀 한");

        assertThat(out)
                .isEqualTo(
                        "--zone Europe/Berlin\\u202e\\u200b\\u200f\\u2066\\ufeff x\\ud800y\\udc00 \\udb40\\udc01 é 😀 한");
    }

    @Test
    void text_cutBeforeTheMaximum_neverLeavesHalfASurrogatePair() {
        String out = new Redactor(20).text("x".repeat(19) + "😀" + "y".repeat(100));

        assertThat(out).isEqualTo("x".repeat(19) + "…[truncated]");
    }

    @Test
    void argument_ofASecretOptionWithSpacesInItsValue_masksTheWholeValue() {
        assertThat(redactor.argument("--password=VALUE WITH SPACES")).isEqualTo("--password=[REDACTED]");
        assertThat(redactor.argument("db_password1=a b c")).isEqualTo("db_password1=[REDACTED]");
        assertThat(redactor.argument("--colour=red and green")).isEqualTo("--colour=red and green");
        assertThat(redactor.argument("--note=token=abc def")).isEqualTo("--note=token=[REDACTED] def");
    }
}
