package dev.punctual.cli.init;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.punctual.PunctualException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The files {@code punctual init} writes: the templates under {@code dev/punctual/cli/init/template}
 * (listed in {@code files.txt}, since a jar cannot be listed), with the team's coordinates filled in,
 * plus Punctual's own Maven wrapper and a cdk.json whose feature flags are Punctual's and whose app is
 * the team's. Nothing here touches the disk but {@link #writeTo(Path)}.
 */
public final class TeamRepository {

    private static final String BASE = "/dev/punctual/cli/init/";

    /** Written executable: the wrapper and the CLI launcher. */
    private static final List<String> EXECUTABLE = List.of("mvnw", "bin/punctual");

    /** What cdk.json runs: build the jobs' Lambda jar, then the team's CDK app. */
    static final String CDK_APP = "./mvnw -q -B -ntp -pl infra -am -DskipTests package exec:java";

    private final TeamCoordinates coordinates;

    /** Read once: every template is filled with them, so reading per file read two resources each time. */
    private final String punctualVersion = punctualVersion();

    private final String cdkCliVersion = cdkCliVersion();

    public TeamRepository(TeamCoordinates coordinates) {
        this.coordinates = coordinates;
    }

    /** Punctual's version, which the team's build pins (its BOM). */
    public static String punctualVersion() {
        return built().getProperty("version");
    }

    /** The CDK CLI version Punctual is tested with, which the team's README and app name. */
    public static String cdkCliVersion() {
        return read("root/cdk-cli.version").strip();
    }

    /** Every file, by its path in the repository, in a stable order. */
    public Map<String, String> files() {
        Map<String, String> files = new LinkedHashMap<>();
        for (String template : read("files.txt")
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty())
                .toList()) {
            String path = fill(dotted(template))
                    .replace("__PACKAGE_PATH__", coordinates.packageName().replace('.', '/'));
            files.put(path, fill(read("template/" + template)));
        }
        files.put("mvnw", read("root/mvnw"));
        files.put(".mvn/jdk.sh", read("root/.mvn/jdk.sh"));
        files.put(".mvn/build-lock.sh", read("root/.mvn/build-lock.sh"));
        files.put(".mvn/wrapper/maven-wrapper.properties", read("root/.mvn/wrapper/maven-wrapper.properties"));
        files.put("cdk.json", cdkJson());
        return files;
    }

    /** Writes {@link #files()} under {@code root}, which must exist and be empty. */
    public List<Path> writeTo(Path root) {
        List<Path> written = new ArrayList<>();
        try {
            for (Map.Entry<String, String> file : files().entrySet()) {
                Path target = root.resolve(file.getKey());
                Files.createDirectories(target.getParent());
                Files.writeString(target, file.getValue(), StandardCharsets.UTF_8);
                if (EXECUTABLE.contains(file.getKey())
                        && target.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
                written.add(target);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return written;
    }

    /**
     * A template's path in the repository. Jar tools leave out {@code .gitignore} (one of their default
     * excludes), so that template is stored as {@code gitignore} and written under its real name.
     */
    static String dotted(String template) {
        return template.equals("gitignore") ? ".gitignore" : template;
    }

    private String fill(String text) {
        return text.replace("__GROUP_ID__", coordinates.groupId())
                .replace("__ARTIFACT_ID__", coordinates.artifactId())
                .replace("__PACKAGE__", coordinates.packageName())
                .replace("__PUNCTUAL_VERSION__", punctualVersion)
                .replace("__CDK_VERSION__", cdkCliVersion);
    }

    /** Punctual's cdk.json (its feature flags are what the constructs are tested with), with the team's app. */
    private static String cdkJson() {
        try {
            ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            ObjectNode punctual = (ObjectNode) json.readTree(read("root/cdk.json"));
            ObjectNode team = json.createObjectNode();
            team.put("app", CDK_APP);
            team.putObject("watch").putArray("include").add("jobs/src/main/**").add("infra/src/main/**");
            team.set("context", punctual.required("context"));
            return json.writeValueAsString(team) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties built() {
        Properties properties = new Properties();
        try (InputStream in = resource("punctual.properties")) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }

    private static String read(String name) {
        try (InputStream in = resource(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream resource(String name) {
        InputStream in = TeamRepository.class.getResourceAsStream(BASE + name);
        if (in == null) {
            throw new PunctualException("init: the CLI was built without its template " + name
                    + "; rebuild it with ./mvnw -DskipTests package");
        }
        return in;
    }
}
