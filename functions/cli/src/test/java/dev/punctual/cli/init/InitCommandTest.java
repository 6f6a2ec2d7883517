package dev.punctual.cli.init;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.punctual.cli.CliRun;
import dev.punctual.cli.PunctualCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code punctual init DIR}: a team repository with the team's names, Punctual's version and feature
 * flags, nothing of the examples, written all or nothing. .ci/add-a-job builds, tests, plans, runs and
 * synthesises what it writes; these tests pin what it writes and what it refuses.
 */
class InitCommandTest {

    @TempDir
    Path temp;

    @Test
    void init_writesTheRepository_inTheTeamsPackage_withNoPlaceholderLeft() throws IOException {
        Path dir = temp.resolve("digest-jobs");

        CliRun result = CliRun.of("init", dir.toString(), "--group-id", "com.acme", "--package", "com.acme.digest");

        assertThat(result.code()).as(result.err()).isZero();
        Map<String, String> files = read(dir);
        assertThat(files.keySet())
                .contains(
                        "pom.xml",
                        "mvnw",
                        ".mvn/jdk.sh",
                        ".mvn/build-lock.sh",
                        ".mvn/wrapper/maven-wrapper.properties",
                        "cdk.json",
                        "bin/punctual",
                        "README.md",
                        "events/run-weekly-digest.json",
                        "jobs/pom.xml",
                        "jobs/src/main/java/com/acme/digest/WeeklyDigestJob.java",
                        "jobs/src/main/java/com/acme/digest/TeamCatalog.java",
                        "jobs/src/main/resources/META-INF/services/dev.punctual.job.CatalogProvider",
                        "jobs/src/test/java/com/acme/digest/WeeklyDigestJobTest.java",
                        "infra/pom.xml",
                        "infra/src/main/java/com/acme/digest/infra/StageApp.java");
        for (String placeholder : List.of(
                "__GROUP_ID__",
                "__ARTIFACT_ID__",
                "__PACKAGE__",
                "__PACKAGE_PATH__",
                "__PUNCTUAL_VERSION__",
                "__CDK_VERSION__")) {
            assertThat(files)
                    .allSatisfy((path, text) -> assertThat(text).as(path).doesNotContain(placeholder));
        }
        assertThat(files.get("jobs/src/main/resources/META-INF/services/dev.punctual.job.CatalogProvider"))
                .isEqualTo("com.acme.digest.TeamCatalog\n");
        assertThat(files.get("pom.xml"))
                .contains("<groupId>com.acme</groupId>")
                .contains("<artifactId>digest-jobs-parent</artifactId>")
                .contains("<punctual.version>" + TeamRepository.punctualVersion() + "</punctual.version>")
                .contains("<artifactId>punctual-bom</artifactId>");
        assertThat(files.get("infra/pom.xml")).contains("<mainClass>com.acme.digest.infra.StageApp</mainClass>");
        assertThat(result.out()).contains("init: wrote " + dir).contains("bin/punctual plan --job weekly-digest");
    }

    @Test
    void init_makesAGitRepository_linksNothingThatIsNotThere_andPrintsWhatComesFirstBeforeWhatComesNext()
            throws IOException {
        Path dir = temp.resolve("digest-jobs");

        CliRun result = CliRun.of("init", dir.toString(), "--group-id", "com.acme");

        assertThat(result.code()).as(result.err()).isZero();
        assertThat(dir.resolve(".git")).as("git init ran in the new repository").isDirectory();
        assertThat(dir.resolve(".gitignore")).isRegularFile();
        assertThat(read(dir))
                .allSatisfy((path, text) -> assertThat(text)
                        .as(path)
                        .doesNotContain("](https://github.com/punctual)")
                        .doesNotContainPattern("\\]\\(https?://(example\\.com|github\\.com/punctual)\\b"));
        List<String> lines = result.out().lines().toList();
        assertThat(lines.get(0)).startsWith("init: wrote " + dir);
        assertThat(lines.get(1)).startsWith("git:  initialised an empty repository in " + dir);
        int next = lines.indexOf(
                lines.stream().filter(l -> l.startsWith("next:")).findFirst().orElseThrow());
        assertThat(lines.subList(next, lines.size()))
                .as("a note of what must come first is never after the next steps")
                .noneMatch(l -> l.startsWith("note:"));
        assertThat(read(dir).get("README.md")).contains("bootstrap aws://ACCOUNT/REGION");
    }

    @Test
    void init_givesTheWrapperAndTheLauncher_theirExecutableBit() throws IOException {
        Path dir = temp.resolve("jobs-repo");

        assertThat(CliRun.of("init", dir.toString()).code()).isZero();

        assertThat(Files.getPosixFilePermissions(dir.resolve("mvnw"))).contains(PosixFilePermission.OWNER_EXECUTE);
        assertThat(Files.getPosixFilePermissions(dir.resolve("bin/punctual")))
                .contains(PosixFilePermission.OWNER_EXECUTE);
        assertThat(Files.getPosixFilePermissions(dir.resolve("pom.xml")))
                .doesNotContain(PosixFilePermission.OWNER_EXECUTE);
    }

    @Test
    void withoutOptions_theArtifactIdIsTheDirectorysName_andThePackageFollowsFromIt() throws IOException {
        Path dir = temp.resolve("Billing_Jobs");

        assertThat(CliRun.of("init", dir.toString()).code()).isZero();

        assertThat(read(dir))
                .containsKey("jobs/src/main/java/com/example/billingjobs/WeeklyDigestJob.java")
                .hasEntrySatisfying(
                        "jobs/pom.xml",
                        pom -> assertThat(pom)
                                .contains("<artifactId>billing-jobs-jobs</artifactId>")
                                .contains("billing-jobs-lambda.jar"));
    }

    @Test
    void cdkJson_runsTheTeamsApp_withPunctualsFeatureFlags() throws IOException {
        Path dir = temp.resolve("team");
        assertThat(CliRun.of("init", dir.toString()).code()).isZero();
        ObjectMapper json = new ObjectMapper();

        JsonNode team = json.readTree(dir.resolve("cdk.json").toFile());
        JsonNode punctual = json.readTree(repositoryRoot().resolve("cdk.json").toFile());

        assertThat(team.path("app").asText()).isEqualTo(TeamRepository.CDK_APP);
        assertThat(team.path("context")).isEqualTo(punctual.path("context"));
        assertThat(team.at("/watch/include").toString()).contains("jobs/src/main/**");
    }

    @Test
    void theWrapper_isPunctualsOwn() throws IOException {
        Path dir = temp.resolve("team");
        assertThat(CliRun.of("init", dir.toString()).code()).isZero();

        for (String file :
                List.of("mvnw", ".mvn/jdk.sh", ".mvn/build-lock.sh", ".mvn/wrapper/maven-wrapper.properties")) {
            assertThat(dir.resolve(file))
                    .as(file)
                    .hasSameTextualContentAs(repositoryRoot().resolve(file));
        }
    }

    @Test
    void theSampleJobAndCatalog_compileAgainstTheJobApi() throws IOException {
        Path dir = temp.resolve("team");
        assertThat(CliRun.of("init", dir.toString(), "--package", "com.acme.digest")
                        .code())
                .isZero();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(
                List.of("-d", temp.resolve("classes").toString(), "-classpath", System.getProperty("java.class.path")));
        try (Stream<Path> sources = Files.walk(dir.resolve("jobs/src/main/java"))) {
            sources.filter(p -> p.toString().endsWith(".java"))
                    .map(Path::toString)
                    .forEach(args::add);
        }
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();

        int code = javac.run(null, diagnostics, diagnostics, args.toArray(String[]::new));

        assertThat(code).as(diagnostics.toString()).isZero();
        assertThat(temp.resolve("classes/com/acme/digest/TeamCatalog.class")).exists();
    }

    @Test
    void aDirectoryThatIsNotEmpty_exitsTwo_andIsLeftAsItWas() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("taken"));
        Files.writeString(dir.resolve("notes.txt"), "mine");

        CliRun result = CliRun.of("init", dir.toString());

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("DIR: '" + dir + "' is not empty; accepted: a new or empty directory");
        assertThat(read(dir)).containsExactly(Map.entry("notes.txt", "mine"));
    }

    @Test
    void anEmptyDirectory_isFilled() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("empty"));

        assertThat(CliRun.of("init", dir.toString()).code()).isZero();

        assertThat(dir.resolve("pom.xml")).exists();
    }

    @Test
    void aPackageThatIsAJavaKeyword_exitsTwo_namingTheOptionAndWhatIsAccepted_andWritesNothing() {
        Path dir = temp.resolve("team");

        CliRun result = CliRun.of("init", dir.toString(), "--package", "com.acme.new");

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err())
                .contains("--package: 'com.acme.new' is not accepted; accepted: a Java package of dotted lower-case"
                        + " names, none a Java keyword");
        assertThat(dir).doesNotExist();
        assertThat(temp).isEmptyDirectory();
    }

    @Test
    void aGroupIdOrArtifactIdOutsideTheirSyntax_exitsTwo_namingTheOption() {
        CliRun group = CliRun.of("init", temp.resolve("a").toString(), "--group-id", "Com.Acme");
        CliRun artifact = CliRun.of("init", temp.resolve("b").toString(), "--artifact-id", "digest jobs");
        CliRun fromName = CliRun.of("init", temp.resolve("---").toString());

        assertThat(group.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(group.err()).contains("--group-id: 'Com.Acme' is not accepted; accepted: a Maven group id");
        assertThat(artifact.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(artifact.err()).contains("--artifact-id: 'digest jobs' is not accepted");
        assertThat(fromName.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(fromName.err()).contains("--artifact-id: the directory's name '---' gives no artifact id");
        assertThat(temp).isEmptyDirectory();
    }

    @Test
    void aParentThatDoesNotExist_exitsTwo() {
        CliRun result = CliRun.of("init", temp.resolve("missing/team").toString());

        assertThat(result.code()).isEqualTo(PunctualCli.INVALID_INPUT);
        assertThat(result.err()).contains("the parent of").contains("does not exist");
    }

    private static Map<String, String> read(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            // What init wrote; the repository git init made beside it is git's.
            for (Path file : paths.filter(Files::isRegularFile)
                    .filter(f -> !root.relativize(f).startsWith(".git"))
                    .toList()) {
                files.put(root.relativize(file).toString().replace('\\', '/'), Files.readString(file));
            }
        }
        return files;
    }

    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("cdk.json"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("the repository root").isNotNull();
        return dir;
    }
}
