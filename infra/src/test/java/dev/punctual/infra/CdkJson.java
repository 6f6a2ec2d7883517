package dev.punctual.infra;

import dev.punctual.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The repository's cdk.json, as the CDK CLI reads it from the repository root. */
record CdkJson(String app, Map<String, Object> context) {

    static Path path() {
        for (Path candidate :
                List.of(Path.of("cdk.json"), Path.of("..", "cdk.json"), Path.of("..", "..", "cdk.json"))) {
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("cdk.json not found from " + Path.of("").toAbsolutePath());
    }

    @SuppressWarnings("unchecked")
    static CdkJson read() {
        try {
            Map<String, Object> root = (Map<String, Object>) Json.read(Files.readString(path()));
            return new CdkJson((String) root.get("app"), (Map<String, Object>) root.get("context"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Json.NotJsonException e) {
            throw new IllegalStateException("cdk.json is not JSON: " + e.getMessage(), e);
        }
    }
}
