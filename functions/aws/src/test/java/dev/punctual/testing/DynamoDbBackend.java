package dev.punctual.testing;

import java.net.URI;

/**
 * A DynamoDB-protocol server the tests talk to.
 *
 * @param kind which of the harness's sources it came from
 * @param endpoint where it answers
 * @param detail a human-readable line for the test output (version, where it was installed)
 */
public record DynamoDbBackend(Kind kind, URI endpoint, String detail) {

    /** The sources, in the order the harness tries them. */
    public enum Kind {
        /** The endpoint in {@code PUNCTUAL_DYNAMODB_ENDPOINT}. */
        EXTERNAL,
        /** LocalStack in a container, through Testcontainers, when a Docker engine answers. */
        LOCALSTACK,
        /** moto server in a project-managed virtualenv. */
        MOTO
    }

    public String describe() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + " at " + endpoint + " (" + detail + ")";
    }
}
