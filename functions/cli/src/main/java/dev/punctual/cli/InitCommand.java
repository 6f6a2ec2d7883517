package dev.punctual.cli;

import dev.punctual.cli.init.TeamCoordinates;
import dev.punctual.cli.init.TeamRepository;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code punctual init DIR}: writes a team repository on Punctual's libraries (a Maven build on the BOM
 * with its own wrapper, one sample job with its catalog and its test, a CDK app, bin/punctual, events/,
 * a README). Everything is written into a sibling directory first and moved into place at the end, so
 * a refusal or a failure leaves nothing half-written.
 */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        description = "Writes a team repository for your own jobs on Punctual's libraries: a Maven build with its"
                + " wrapper, a sample job (weekly-digest) with its catalog and test, a CDK app, bin/punctual,"
                + " events/ and a README.")
final class InitCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "A new or empty directory")
    Path directory;

    @Option(
            names = "--group-id",
            paramLabel = "ID",
            description = "The Maven group id (default: " + TeamCoordinates.DEFAULT_GROUP_ID + ")")
    String groupId = TeamCoordinates.DEFAULT_GROUP_ID;

    @Option(
            names = "--artifact-id",
            paramLabel = "ID",
            description = "The repository's artifact id, which names its Lambda jar (default: DIR's name)")
    String artifactId;

    @Option(
            names = "--package",
            paramLabel = "NAME",
            description = "The Java package of the jobs (default: the group id and the artifact id, e.g."
                    + " com.example.digestjobs)")
    String packageName;

    @Override
    public Integer call() {
        TeamCoordinates coordinates = coordinates();
        Path target = directory.toAbsolutePath().normalize();
        refuseUnlessNewOrEmpty(target);
        List<Path> written = writeAtomically(target, new TeamRepository(coordinates));
        report(target, coordinates, written.size(), gitInit(target));
        return 0;
    }

    /**
     * Makes the new repository a git repository, as {@code cargo new} and {@code npm init} do, so its
     * .gitignore applies from the first {@code git add}; the files are written whether git is there or
     * not, so a missing or failing git is said, never an error.
     *
     * @return the line that says what became of it
     */
    static String gitInit(Path target) {
        try {
            Process git = new ProcessBuilder("git", "init", "-q")
                    .directory(target.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (git.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) && git.exitValue() == 0) {
                return "git:  initialised an empty repository in " + target + " (nothing committed)";
            }
            git.destroyForcibly();
            return "git:  git init did not succeed there; run it yourself before the first commit";
        } catch (IOException e) {
            return "git:  not found; run git init there before the first commit";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "git:  git init was interrupted; run it yourself before the first commit";
        }
    }

    private TeamCoordinates coordinates() {
        refuse("--group-id", TeamCoordinates.problemWithGroupId(groupId));
        String artifact = artifactId;
        if (artifact == null) {
            String name = Optional.ofNullable(
                            directory.toAbsolutePath().normalize().getFileName())
                    .map(Path::toString)
                    .orElse("");
            artifact = TeamCoordinates.artifactIdFor(name)
                    .orElseThrow(() -> new CommandLine.ParameterException(
                            spec.commandLine(),
                            "--artifact-id: the directory's name '" + name + "' gives no artifact id; accepted:"
                                    + " --artifact-id with lower-case letters, digits and dashes, e.g. digest-jobs"));
        }
        refuse("--artifact-id", TeamCoordinates.problemWithArtifactId(artifact));
        String pkg = packageName != null ? packageName : TeamCoordinates.defaultPackage(groupId, artifact);
        refuse("--package", TeamCoordinates.problemWithPackage(pkg));
        return new TeamCoordinates(groupId, artifact, pkg);
    }

    private void refuse(String option, Optional<String> problem) {
        problem.ifPresent(p -> {
            throw new CommandLine.ParameterException(spec.commandLine(), option + ": " + p);
        });
    }

    private void refuseUnlessNewOrEmpty(Path target) {
        if (Files.exists(target) && (!Files.isDirectory(target) || !isEmpty(target))) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "DIR: '" + directory + "' " + (Files.isDirectory(target) ? "is not empty" : "is a file")
                            + "; accepted: a new or empty directory (init never overwrites)");
        }
        if (target.getParent() == null || !Files.isDirectory(target.getParent())) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "DIR: the parent of '" + directory + "' does not exist; accepted: a directory whose parent exists");
        }
    }

    /** Writes into a sibling, then moves it into place: a failure leaves DIR as it was. */
    private static List<Path> writeAtomically(Path target, TeamRepository repository) {
        Path staging = null;
        try {
            staging = Files.createTempDirectory(target.getParent(), "." + target.getFileName() + ".init-");
            int count = repository.writeTo(staging).size();
            if (Files.isDirectory(target)) {
                Files.delete(target); // empty, checked above
            }
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            staging = null;
            try (Stream<Path> files = Files.walk(target)) {
                List<Path> written = files.filter(Files::isRegularFile).toList();
                if (written.size() != count) {
                    throw new IllegalStateException("init: wrote " + count + " files, found " + written.size());
                }
                return written;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("init: could not write " + target + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(staging);
        }
    }

    /** What was written, then what must come first (Punctual in ~/.m2), then the next commands, in that order. */
    private void report(Path target, TeamCoordinates coordinates, int files, String git) {
        PrintWriter out = spec.commandLine().getOut();
        String version = TeamRepository.punctualVersion();
        out.printf(
                "init: wrote %s (%d files): %s:%s on Punctual %s, job weekly-digest in %s%n",
                target, files, coordinates.groupId(), coordinates.artifactId(), version, coordinates.packageName());
        out.println(git);
        Path bom = Path.of(
                System.getProperty("user.home"), ".m2", "repository", "dev", "punctual", "punctual-bom", version);
        if (!Files.isDirectory(bom)) {
            out.println("note: Punctual " + version + " is not in ~/.m2 yet; first run ./mvnw install -DskipTests in"
                    + " Punctual's repository (README, \"Your own jobs\")");
        }
        out.println("next: cd " + directory);
        out.println("      ./mvnw verify                                   # build, and run the job's test");
        out.println("      bin/punctual plan --job weekly-digest --count 5");
        out.println("      npx -y aws-cdk@" + TeamRepository.cdkCliVersion() + " synth -c stage=dev");
        out.flush();
    }

    private static boolean isEmpty(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a hidden staging directory beside DIR is all that can remain
        }
    }
}
