package dev.punctual.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Personal data in the kinds of text that reach an outcome line, a result, an error or an event (every
 * value here is made up, the card numbers are the networks' published test numbers): it must be gone
 * and the mask of its kind present. And the numbers that fill Punctual's own lines, which look a
 * little like it, must come out unchanged (issue 24, item 10).
 */
class RedactorPersonalDataCorpusTest {

    private static final Redactor REDACTOR = Redactor.standard();

    static Stream<Arguments> corpus() {
        String fcm = "dGVzdC1pbnN0YW5jZQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx7kBPx2Zz_Gq_9JQ6gK0XyZ1a2b3c4d5e6f";
        String apns = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad";
        return Stream.of(
                c(
                        "e-mail in an error",
                        "SMTP 550: mailbox bob.smith+tag@mail.example.co.kr unavailable",
                        "bob.smith+tag@mail.example.co.kr",
                        Redactor.EMAIL_MASK),
                c(
                        "e-mail at the end of a sentence",
                        "sent to alice@example.com.",
                        "alice@example.com",
                        Redactor.EMAIL_MASK),
                c("e-mail in angle brackets", "From: Bob <bob@example.org>", "bob@example.org", Redactor.EMAIL_MASK),
                c("e-mail in JSON", "{\"to\":\"carol@example.net\",\"n\":1}", "carol@example.net", Redactor.EMAIL_MASK),
                c("Korean mobile, international", "SMS to +82 10-1234-5678 failed", "1234-5678", Redactor.PHONE_MASK),
                c("Korean mobile, national", "SMS to 010-1234-5678 failed", "010-1234-5678", Redactor.PHONE_MASK),
                c(
                        "US number with area code in brackets",
                        "call +1 (415) 555-0100 now",
                        "555-0100",
                        Redactor.PHONE_MASK),
                c("US number, national", "callback (415) 555-0100", "555-0100", Redactor.PHONE_MASK),
                c("US number, dashes", "callback 415-555-0100", "415-555-0100", Redactor.PHONE_MASK),
                c("E.164", "twilio: to=+14155550100 rejected", "4155550100", Redactor.PHONE_MASK),
                c("UK number", "+44 20 7946 0958", "7946 0958", Redactor.PHONE_MASK),
                c("UK number with the trunk 0 in brackets", "+44 (0)20 7946 0958", "7946 0958", Redactor.PHONE_MASK),
                c("French number in pairs", "+33 1 23 45 67 89", "23 45 67 89", Redactor.PHONE_MASK),
                c("UK number, national", "020 7946 0958", "7946 0958", Redactor.PHONE_MASK),
                c("phone then a count", "+82 10-1234-5678 3 times", "1234-5678", Redactor.PHONE_MASK),
                c(
                        "FCM registration token",
                        "FCM send failed for " + fcm + ": NotRegistered",
                        "APA91bHun4MxP5",
                        Redactor.PUSH_TOKEN_MASK),
                c(
                        "legacy GCM token",
                        "APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx7kBPx2Zz",
                        "APA91bHun4MxP5",
                        Redactor.PUSH_TOKEN_MASK),
                c("APNs device token", "APNs 410 Unregistered: " + apns, apns, Redactor.PUSH_TOKEN_MASK),
                c(
                        "APNs device token as printed by NSData",
                        "<740f4707 bebcf74f 9b7c25d4 8e335894 5f6aa01d a5ddb387 462c7eaf 61bb78ad>",
                        "8e335894",
                        Redactor.PUSH_TOKEN_MASK),
                c(
                        "Visa, spaced",
                        "charge failed: card 4111 1111 1111 1111 declined",
                        "4111 1111 1111 1111",
                        Redactor.CARD_MASK),
                c("Visa, dashed", "card 4111-1111-1111-1111", "4111-1111-1111-1111", Redactor.CARD_MASK),
                c("Visa, plain", "pan=4111111111111111", "4111111111111111", Redactor.CARD_MASK),
                c("Mastercard", "5555555555554444", "5555555555554444", Redactor.CARD_MASK),
                c("Mastercard 2-series", "2223003122003222", "2223003122003222", Redactor.CARD_MASK),
                c("American Express, 4-6-5", "Amex 3782 822463 10005", "822463", Redactor.CARD_MASK),
                c("Discover", "6011111111111117", "6011111111111117", Redactor.CARD_MASK),
                c("JCB", "3530111333300000", "3530111333300000", Redactor.CARD_MASK),
                c("card then its security code", "4111 1111 1111 1111 123", "4111 1111", Redactor.CARD_MASK),
                // Issue 40, item 5: social security numbers and IBANs (the registry's own examples).
                c("SSN", "W-2 for SSN 123-45-6789 rejected", "123-45-6789", Redactor.SSN_MASK),
                c("SSN in JSON", "{\"ssn\":\"219-09-9999\"}", "219-09-9999", Redactor.SSN_MASK),
                c("IBAN, printed", "SEPA to DE89 3704 0044 0532 0130 00 failed", "0532 0130", Redactor.IBAN_MASK),
                c("IBAN with letters", "iban=GB82 WEST 1234 5698 7654 32.", "WEST 1234", Redactor.IBAN_MASK),
                c("IBAN, compact", "account NL91ABNA0417164300 closed", "NL91ABNA0417164300", Redactor.IBAN_MASK),
                c("IBAN, 27 long", "FR14 2004 1010 0505 0001 3M02 606", "0505 0001", Redactor.IBAN_MASK),
                c("IBAN then a capital word", "BE68 5390 0754 7034 FAIL", "0754 7034", Redactor.IBAN_MASK));
    }

    private static Arguments c(String name, String text, String personal, String mask) {
        return Arguments.of(name, text, personal, mask);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void text_withPersonalDataOfAKnownShape_masksItSayingWhatItWas(
            String name, String text, String personal, String mask) {
        String out = REDACTOR.text(text);

        assertThat(out).doesNotContain(personal).contains(mask);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void line_withPersonalDataOfAKnownShape_masksItAndStaysOneLine(
            String name, String text, String personal, String mask) {
        String out = REDACTOR.line(text + "\nnext");

        assertThat(out).doesNotContain(personal).contains(mask).doesNotContain("\n");
    }

    /**
     * What Punctual's own lines are made of, and what a job's result or error ordinarily holds: none of
     * it is personal data, and all of it must read as it was written.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "2026-11-30T14:00:00Z",
                "2026-11-30T09:00:00-05:00 2026-11-30T09:00:00+09:00 2026-11-30T03:00:00+01:00[Europe/Berlin]",
                "report for 2026-11-30 at 2026-11-30 14:00:00,123",
                "--at +1000000000-12-31T14:00:00Z is outside the years EventBridge schedules (1970 to 2199)",
                "{\"_aws\":{\"Timestamp\":1764511200000},\"lateness_ms\":129602000,\"duration_ms\":0,\"fence\":4}",
                "epoch millis 1764511200000, micros 1764511200000000, nanos 1764511200000000000",
                "fence 1234567890123 attempt 2 of 3",
                "in 23h 59m, PT36H0.002S, 90s, 1d 23h, P1Y2M3DT4H5M6S, 10:15:30.123456789",
                "punctual 0.1.0-SNAPSHOT, aws-cdk 2.1148.1, java 25.0.1+8, 1.0.0-rc.1",
                "request 123e4567-e89b-12d3-a456-426614174000 and 12345678-1234-1234-1234-123456789012",
                "arn:aws:lambda:us-east-1:123456789012:function:Punctual-dev-Pooldefault:live",
                "arn:aws:iam::123456789012:role/punctual-dev",
                "10.0.0.5 192.168.1.100 255.255.255.0 172.16.254.1:6379 fe80::1ff:fe23:4567:890a",
                "INIT_START Runtime Version: java:21.v20 Runtime Version ARN: arn:aws:lambda:us-east-1::runtime:"
                        + "0cdcfbdefbc5e7d3343f73c2e2dd3cba17d61dea0686b404502a0c9ce83931b9",
                "REPORT RequestId: 3f1b2c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d Duration: 1234.56 ms Billed Duration: 1235 ms"
                        + " Memory Size: 512 MB Max Memory Used: 150 MB Init Duration: 432.10 ms",
                "XRAY TraceId: 1-5e1b4151-5ac6c58f5b5dbd6a2c4d8e9f SegmentId: 6f8e2a1b3c4d5e6f Sampled: true",
                "sha256:0cdcfbdefbc5e7d3343f73c2e2dd3cba17d61dea0686b404502a0c9ce83931b9",
                "java.lang.Object@1b6d3586 pkg@1.2.3 @scope/pkg@latest",
                "postgres://app@db.internal:5432/app",
                "order 20261130140000 shipped, 4111111111111112 is no card, nor is 12345678901234567890",
                "counts 4 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
                "ISBN 978-3-16-148410-0",
                "delta +129602000, offsets +02:00 +0900 -0500, 1+1=2, 1e+10",
                "rate(15 minutes) cron(0 9 * * ? *) cron(30 2 * * ? *)",
                // Issue 40: the shape of an SSN or an IBAN without being one.
                "ranges 000-12-3456 666-12-3456 900-12-3456 123-00-4567 123-45-0000, dates 2026-11-30",
                "GB82WEST12345698765433 fails its check, XX89370400440532013000 is no country, DE8937040044 too short",
                "ticket AB12CDEFGHIJKLMNOP, build DE89 3704 1144 0532 1130 01, part 123-45-67890",
            })
    void text_ofTimesNumbersAndIdsPunctualWrites_isUnchanged(String text) {
        assertThat(REDACTOR.text(text)).isEqualTo(text);
    }

    @Test
    void fields_withACardNumberGivenAsANumber_maskIt_andLeaveOtherNumbersAlone() {
        Map<String, Object> out = REDACTOR.fields(Map.of(
                "card",
                4111111111111111L,
                "at_ms",
                1764511200000L,
                "rows",
                3,
                "recipients",
                List.of("bob@example.com", "+14155550100")));

        assertThat(out)
                .containsEntry("card", Redactor.CARD_MASK)
                .containsEntry("at_ms", 1764511200000L)
                .containsEntry("rows", 3)
                .containsEntry("recipients", List.of(Redactor.EMAIL_MASK, Redactor.PHONE_MASK));
    }

    @Test
    void text_ofAnAlreadyRedactedText_isUnchanged() {
        String once = REDACTOR.text("to bob@example.com, +14155550100, card 4111 1111 1111 1111, password=x");

        assertThat(REDACTOR.text(once)).isEqualTo(once);
    }
}
