package dev.punctual.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;

/** LocalStack through Testcontainers, for machines with a Docker engine. */
final class LocalStackBackend {

    /** Pinned so that a test run does not change behaviour when LocalStack publishes a new image. */
    static final String IMAGE = "localstack/localstack:4.9.2";

    private LocalStackBackend() {}

    /**
     * Asks Testcontainers only when there is a sign of a Docker engine: without one, its probing logs
     * a page of errors before it gives up, which would bury the line that says which backend was chosen.
     */
    static boolean dockerAnswers() {
        boolean hint = System.getenv("DOCKER_HOST") != null
                || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(System.getProperty("user.home"), ".testcontainers.properties"))
                || Files.exists(Path.of(System.getProperty("user.home"), ".docker/run/docker.sock"));
        if (!hint) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Starts the container; Testcontainers' Ryuk removes it when the JVM exits. */
    static DynamoDbBackend start() {
        @SuppressWarnings("resource") // lives for the whole JVM; Ryuk stops it
        LocalStackContainer container =
                new LocalStackContainer(DockerImageName.parse(IMAGE)).withServices("dynamodb", "events");
        container.start();
        return new DynamoDbBackend(DynamoDbBackend.Kind.LOCALSTACK, container.getEndpoint(), IMAGE);
    }
}
