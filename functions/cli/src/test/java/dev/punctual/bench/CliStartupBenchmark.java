package dev.punctual.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The CLI's start-up, as a person meets it: {@code bin/punctual --version}, {@code jobs} and {@code plan}
 * run as processes through the launcher, each N times after one warm-up run (which builds the jars and
 * the start-up archive when they are missing), beside {@code java -version} on the same JDK, the floor no
 * JVM program goes below. Prints the median, the fastest and the slowest of each, with the class-data archive and
 * without it ({@code PUNCTUAL_CLI_CDS=off}). docs/benchmarks.md, "CLI start-up", holds the figures and
 * the command, from the repository root: {@code java functions/cli/src/test/java/dev/punctual/bench/CliStartupBenchmark.java}
 * (a single-file program on the JDK alone; the JDK the launcher finds is the one measured).
 * A measurement, never a test: nothing here asserts a time.
 */
public final class CliStartupBenchmark {

    private CliStartupBenchmark() {}

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 11;
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(root.resolve("bin/punctual"))) {
            root = root.getParent();
        }
        String launcher = root.resolve("bin/punctual").toString();
        run(root, Map.of(), launcher, "--version"); // builds and prepares the archive when needed
        String java = jdk(root) + "/bin/java";
        List<List<String>> commands = List.of(
                List.of(java, "-version"),
                List.of(launcher, "--version"),
                List.of(launcher, "jobs"),
                List.of(launcher, "plan", "--job", firstJob(root, launcher), "--count", "5"));
        System.out.printf(
                "%d runs each, after one warm-up; %d cores; %s%n%n",
                runs, Runtime.getRuntime().availableProcessors(), java);
        System.out.println("| command | class-data archive | median | fastest | slowest |");
        System.out.println("|---|---|---|---|---|");
        for (List<String> command : commands) {
            boolean launched = command.get(0).equals(launcher);
            for (String cds : launched ? List.of("on", "off") : List.of("n/a")) {
                Map<String, String> env = cds.equals("off") ? Map.of("PUNCTUAL_CLI_CDS", "off") : Map.of();
                long[] millis = new long[runs];
                for (int i = 0; i < runs; i++) {
                    millis[i] = run(root, env, command.toArray(String[]::new));
                }
                Arrays.sort(millis);
                System.out.printf(
                        "| `%s` | %s | %d ms | %d ms | %d ms |%n",
                        String.join(" ", command).replace(root + "/", "").replace(java, "java"),
                        cds,
                        millis[runs / 2],
                        millis[0],
                        millis[runs - 1]);
            }
        }
    }

    /** Runs one command to its end and returns its wall time; its output is discarded. */
    private static long run(Path root, Map<String, String> env, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(env);
        long start = System.nanoTime();
        Process process = builder.start();
        int code = process.waitFor();
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        if (code != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + code);
        }
        return elapsed;
    }

    /** The JDK the launcher found and remembered. */
    private static String jdk(Path root) throws IOException {
        for (Path remembered :
                List.of(root.resolve("functions/cli/target/launcher-jdk"), root.resolve("infra/target/launcher-jdk"))) {
            if (Files.isRegularFile(remembered)) {
                return Files.readString(remembered).strip().split(" ")[0];
            }
        }
        return System.getProperty("java.home");
    }

    /** The catalog's first job, read through the CLI itself, so the benchmark names no job. */
    private static String firstJob(Path root, String launcher) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(launcher, "jobs")
                .directory(root.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        List<String> lines = new ArrayList<>(
                new String(process.getInputStream().readAllBytes()).lines().toList());
        process.waitFor();
        return lines.get(1).split("\\s+")[0];
    }
}
