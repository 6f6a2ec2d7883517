package dev.punctual.bench;

import dev.punctual.handler.DeclaredTables;
import dev.punctual.job.JobEnvironment;
import dev.punctual.job.JobTable;
import dev.punctual.ledger.dynamodb.LedgerTable;
import dev.punctual.local.MotoServer;
import dev.punctual.runtime.Catalogs;
import dev.punctual.stage.StageFlags;
import dev.punctual.stage.StageResources;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.function.ToLongFunction;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * Cold start and footprint, measured (not a test): starts moto, creates the stage's tables, then runs
 * fresh JVMs alternately doing one full handler invocation and one bare GetItem with the same client
 * set-up, timing each process from launch to exit. Prints the medians, their ratio, the peak resident
 * memory of the handler JVM, and the jar size.
 *
 * <p>{@code ./mvnw -q -pl functions/lambda -am -Pcold-start -DskipTests package exec:exec [-Dbench.args=ROUNDS]}
 */
public final class ColdStartBenchmark {

    private static final int RESAMPLES = 4000;
    private static final long RESAMPLE_SEED = 20261130L;

    private ColdStartBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Path jar = Path.of("target", "punctual-lambda.jar").toAbsolutePath();
        MotoServer moto = MotoServer.start();
        try {
            Map<String, String> env = stage(moto.endpoint());
            List<Sample> handler = new ArrayList<>();
            List<Sample> bare = new ArrayList<>();
            Instant day = Instant.parse("2026-01-01T14:00:00Z");
            run(jar, env, List.of("bare")); // warms the OS file cache
            for (int i = 0; i < rounds; i++) {
                handler.add(run(
                        jar,
                        env,
                        List.of("handler", day.plus(i, ChronoUnit.DAYS).toString())));
                bare.add(run(jar, env, List.of("bare")));
            }
            report(rounds, jar, handler, bare);
        } finally {
            moto.stop();
        }
    }

    /** A stage's tables and bus on the emulator, and the environment a function of it would have. */
    static Map<String, String> stage(URI endpoint) {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        StageResources resources = new StageResources("bench-ledger-" + suffix, "punctual-bench", "default");
        // The tables the catalog's jobs declare, each under its variable, as a deployed stage has them.
        List<JobTable> declared = Catalogs.load(JobEnvironment.definitionsOnly(StageFlags.defaultsFor("dev")))
                .tables();
        Map<String, String> tableEnvironment = new HashMap<>();
        StaticCredentialsProvider credentials =
                StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench"));
        try (DynamoDbClient dynamo = DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            LedgerTable.create(dynamo, resources.ledgerTable());
            for (JobTable table : declared) {
                String name = "bench-" + table.name().toLowerCase(Locale.ROOT) + "-" + suffix;
                DeclaredTables.create(dynamo, table, name);
                tableEnvironment.put(table.environmentVariable(), name);
            }
        }
        try (EventBridgeClient events = EventBridgeClient.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create())
                .build()) {
            events.createEventBus(b -> b.name(resources.eventBus())); // a deployed stage has its bus
        }
        Map<String, String> env = new HashMap<>(StageFlags.defaultsFor("dev").toEnvironment());
        env.putAll(resources.toEnvironment());
        env.putAll(tableEnvironment);
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_ACCESS_KEY_ID", "bench");
        env.put("AWS_SECRET_ACCESS_KEY", "bench");
        env.put("PUNCTUAL_DYNAMODB_ENDPOINT", endpoint.toString());
        return env;
    }

    /**
     * A fresh JVM running {@code main} with the Lambda jar first on the class path, then {@code classPath},
     * with Lambda's JIT setting and only the given AWS and Punctual environment.
     */
    static ProcessBuilder probe(Path jar, String classPath, Map<String, String> env, String main, List<String> args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+TieredCompilation",
                "-XX:TieredStopAtLevel=1", // what Lambda's Java runtimes do
                "-cp",
                jar + File.pathSeparator + classPath,
                main));
        String extra = System.getProperty("bench.jvmArg");
        if (extra != null) {
            command.add(1, extra.replace("MODE", args.get(0)));
        }
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("PUNCTUAL_"));
        builder.environment().putAll(env);
        return builder;
    }

    /** One probe: launch to exit, its peak resident memory, and the CPU time of all its threads. */
    private record Sample(long millis, long rssKb, long cpuMillis) {}

    private static Sample run(Path jar, Map<String, String> env, List<String> args)
            throws IOException, InterruptedException {
        ProcessBuilder builder =
                probe(jar, System.getProperty("java.class.path"), env, ColdStartProbe.class.getName(), args);
        long start = System.nanoTime();
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int exit = process.waitFor();
        long elapsed = (System.nanoTime() - start) / 1_000_000;
        if (exit != 0) {
            throw new IllegalStateException(args + " exited " + exit + ":\n" + output);
        }
        if (System.getProperty("bench.phases") != null) {
            output.lines().filter(l -> l.startsWith("PHASES")).forEach(System.out::println);
        }
        return new Sample(elapsed, printed(output, "VMHWM_KB "), printed(output, "CPU_MS "));
    }

    private static long printed(String output, String prefix) {
        return output.lines()
                .filter(l -> l.startsWith(prefix))
                .mapToLong(l -> Long.parseLong(l.substring(prefix.length()).trim()))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the probe printed no " + prefix + "line:\n" + output));
    }

    private static void report(int rounds, Path jar, List<Sample> handler, List<Sample> bare) throws IOException {
        long h = median(handler, Sample::millis);
        long b = median(bare, Sample::millis);
        System.out.printf("rounds: %d (alternating, fresh JVM each)%n", rounds);
        System.out.printf("handler (init + one scheduled delivery) ms: %s median %d%n", list(handler), h);
        System.out.printf("bare (same client, one GetItem) ms:           %s median %d%n", list(bare), b);
        double[] interval = interval(handler, bare);
        System.out.printf(
                "ratio handler/bare (medians): %.2f (target <= 1.2); 95%% interval %.2f to %.2f (rounds resampled)%n",
                (double) h / b, interval[0], interval[1]);
        System.out.printf(
                "CPU time, all threads, median ms: handler %d, bare %d (ratio %.2f)%n",
                median(handler, Sample::cpuMillis),
                median(bare, Sample::cpuMillis),
                (double) median(handler, Sample::cpuMillis) / median(bare, Sample::cpuMillis));
        System.out.printf(
                "peak RSS handler JVM MB: max %.1f (target <= 200); bare max %.1f%n",
                max(handler, Sample::rssKb) / 1024.0, max(bare, Sample::rssKb) / 1024.0);
        long bytes = Files.size(jar);
        System.out.printf(
                "jar: %s, %d bytes = %.2f MB = %.2f MiB (target <= 9.5 MB)%n",
                jar.getFileName(), bytes, bytes / 1e6, bytes / 1024.0 / 1024.0);
    }

    /**
     * How far the ratio of medians could move with other rounds of the same machine: the 2.5th and
     * 97.5th percentiles of the ratio over resamples of the rounds (a round is a handler run and the
     * bare run after it, kept together so that both see the same moment of the machine). The seed is
     * fixed, so the same samples give the same interval.
     */
    private static double[] interval(List<Sample> handler, List<Sample> bare) {
        Random random = new Random(RESAMPLE_SEED);
        int rounds = handler.size();
        double[] ratios = new double[RESAMPLES];
        for (int r = 0; r < RESAMPLES; r++) {
            List<Sample> h = new ArrayList<>(rounds);
            List<Sample> b = new ArrayList<>(rounds);
            for (int i = 0; i < rounds; i++) {
                int round = random.nextInt(rounds);
                h.add(handler.get(round));
                b.add(bare.get(round));
            }
            ratios[r] = (double) median(h, Sample::millis) / median(b, Sample::millis);
        }
        Arrays.sort(ratios);
        return new double[] {ratios[RESAMPLES * 25 / 1000], ratios[RESAMPLES * 975 / 1000 - 1]};
    }

    private static List<Long> list(List<Sample> samples) {
        return samples.stream().map(Sample::millis).toList();
    }

    private static long max(List<Sample> samples, ToLongFunction<Sample> value) {
        return samples.stream().mapToLong(value).max().orElseThrow();
    }

    private static long median(List<Sample> samples, ToLongFunction<Sample> value) {
        long[] sorted = samples.stream().mapToLong(value).sorted().toArray();
        return sorted[sorted.length / 2];
    }
}
