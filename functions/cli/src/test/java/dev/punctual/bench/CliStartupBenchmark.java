package dev.punctual.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CLI's start-up, as a person meets it: {@code bin/punctual --version}, {@code jobs} and {@code plan}
 * run as processes through the launcher, with its start-up cache and without it ({@code
 * PUNCTUAL_CLI_CDS=off}), beside {@code java -version} on the same JDK, the floor no JVM program goes below.
 *
 * <p>Rounds are interleaved: each round runs every command once, in the same order, so a machine that gets
 * busier or quieter during the run shifts every command alike. Each run's CPU time (user + system, from the
 * OS: bash's {@code time}, which reads the child's rusage) and wall time are kept; the table gives the
 * median, fastest and slowest of each, and the ratio of the medians to {@code java -version}'s, which
 * docs/benchmarks.md, "CLI start-up", compares with issue 41's goals. From the repository root (a
 * single-file program on the JDK alone; bash must be on the PATH):
 * {@code java functions/cli/src/test/java/dev/punctual/bench/CliStartupBenchmark.java [rounds]}.
 * A measurement, never a test: nothing here asserts a time.
 */
public final class CliStartupBenchmark {

    private CliStartupBenchmark() {}

    /** One command as measured: its label, its argument vector and the environment it adds. */
    private record Variant(String label, String cache, List<String> command, Map<String, String> env) {}

    /** One run: CPU (user + system) and wall time, in milliseconds. */
    private record Sample(long cpuMillis, long wallMillis) {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(root.resolve("bin/punctual"))) {
            root = root.getParent();
        }
        String launcher = root.resolve("bin/punctual").toString();
        measure(root, Map.of(), List.of(launcher, "--version")); // builds and prepares the cache when needed
        String java = jdk(root) + "/bin/java";
        String job = firstJob(root, launcher);
        List<Variant> variants = new ArrayList<>();
        variants.add(new Variant("java -version", "n/a", List.of(java, "-version"), Map.of()));
        for (List<String> args2 :
                List.of(List.of("--version"), List.of("jobs"), List.of("plan", "--job", job, "--count", "5"))) {
            List<String> command = new ArrayList<>(List.of(launcher));
            command.addAll(args2);
            String label = "bin/punctual " + String.join(" ", args2);
            variants.add(new Variant(label, "on", command, Map.of()));
            variants.add(new Variant(label, "off", command, Map.of("PUNCTUAL_CLI_CDS", "off")));
        }
        for (Variant v : variants) {
            measure(root, v.env(), v.command()); // one warm-up each: the page cache, the launcher's stamps
        }
        Map<Variant, List<Sample>> samples = new LinkedHashMap<>();
        variants.forEach(v -> samples.put(v, new ArrayList<>()));
        for (int round = 0; round < rounds; round++) {
            for (Variant v : variants) {
                samples.get(v).add(measure(root, v.env(), v.command()));
            }
        }
        System.out.printf(
                "%d interleaved rounds, after one warm-up of each; %d cores; load average before: %s; %s%n%n",
                rounds, Runtime.getRuntime().availableProcessors(), loadAverage(), java);
        System.out.println("| command | start-up cache | CPU median | CPU min-max | wall median | wall min-max"
                + " | CPU / java -version | wall / java -version |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        long[] floorCpu = sorted(samples.get(variants.getFirst()), Sample::cpuMillis);
        long[] floorWall = sorted(samples.get(variants.getFirst()), Sample::wallMillis);
        for (Variant v : variants) {
            long[] cpu = sorted(samples.get(v), Sample::cpuMillis);
            long[] wall = sorted(samples.get(v), Sample::wallMillis);
            System.out.printf(
                    "| `%s` | %s | %d ms | %d-%d ms | %d ms | %d-%d ms | %.1f× | %.1f× |%n",
                    v.label(),
                    v.cache(),
                    median(cpu),
                    cpu[0],
                    cpu[cpu.length - 1],
                    median(wall),
                    wall[0],
                    wall[wall.length - 1],
                    (double) median(cpu) / median(floorCpu),
                    (double) median(wall) / median(floorWall));
        }
    }

    private static long[] sorted(List<Sample> samples, java.util.function.ToLongFunction<Sample> field) {
        long[] values = samples.stream().mapToLong(field).toArray();
        Arrays.sort(values);
        return values;
    }

    private static long median(long[] sorted) {
        return sorted[sorted.length / 2];
    }

    /**
     * Runs one command to its end under bash's {@code time} and returns its CPU and wall time; the command's
     * own output is discarded. bash reads the child's resource usage (microseconds) rather than sampling.
     */
    private static Sample measure(Path root, Map<String, String> env, List<String> command)
            throws IOException, InterruptedException {
        List<String> timed = new ArrayList<>(
                List.of("bash", "-c", "TIMEFORMAT='%3U %3S %3R'; time \"$@\" >/dev/null 2>&1 </dev/null", "bench"));
        timed.addAll(command);
        ProcessBuilder builder =
                new ProcessBuilder(timed).directory(root.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(env);
        Process process = builder.start();
        String said = new String(process.getErrorStream().readAllBytes()).strip();
        int code = process.waitFor();
        String[] times = said.lines().reduce((a, b) -> b).orElse("").split(" ");
        if (code != 0 || times.length != 3) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + code + ": " + said);
        }
        long user = Math.round(Double.parseDouble(times[0]) * 1000);
        long system = Math.round(Double.parseDouble(times[1]) * 1000);
        long wall = Math.round(Double.parseDouble(times[2]) * 1000);
        return new Sample(user + system, wall);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).strip();
        } catch (IOException e) {
            return "unknown";
        }
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
