package dev.punctual.bench;

import dev.punctual.handler.PunctualHandler;
import dev.punctual.handler.Wiring;
import dev.punctual.stage.StageResources;
import dev.punctual.testing.FakeLambdaContext;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * One cold start, in a fresh JVM started by {@link ColdStartBenchmark} with punctual-lambda.jar first on
 * the class path: {@code handler} builds the real handler from the environment (as Lambda's init does) and
 * handles one scheduled delivery; {@code bare} builds the same DynamoDB client and makes one GetItem.
 * Prints the process's peak resident memory (VmHWM) on stdout.
 */
public final class ColdStartProbe {

    private ColdStartProbe() {}

    public static void main(String[] args) throws IOException {
        String mode = args[0];
        if (mode.equals("handler")) {
            String payload = "{\"kind\":\"scheduled\",\"job\":\"daily-report\",\"scheduled_time\":\"" + args[1]
                    + "\",\"attempt_number\":\"1\"}";
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            long t0 = System.nanoTime();
            PunctualHandler handler = new PunctualHandler();
            long t1 = System.nanoTime();
            handler.handleRequest(
                    new ByteArrayInputStream(payload.getBytes(StandardCharsets.UTF_8)),
                    out,
                    new FakeLambdaContext("cold-start-probe", 300_000));
            // Phase times only; java.lang.management would load classes the bare probe does not.
            System.out.println(
                    "PHASES init_ms=" + (t1 - t0) / 1_000_000 + " invoke_ms=" + (System.nanoTime() - t1) / 1_000_000);
            if (!out.toString(StandardCharsets.UTF_8).contains("\"pass\":1")) {
                throw new IllegalStateException("handler did not pass: " + out.toString(StandardCharsets.UTF_8));
            }
        } else {
            // Both clients, one after the other, with the credentials chain a function uses.
            DynamoDbClient dynamo = Wiring.clients(
                            System.getenv(),
                            DefaultCredentialsProvider.builder().build())
                    .dynamo();
            String table = System.getenv(StageResources.LEDGER_TABLE);
            dynamo.getItem(b -> b.tableName(table)
                    .key(Map.of("pk", AttributeValue.fromS("lock#daily-report"), "sk", AttributeValue.fromS("lock"))));
        }
        System.out.println("VMHWM_KB " + peakResidentKb());
        System.out.println("CPU_MS " + cpuMillis());
        System.exit(0);
    }

    /** User plus system time of the whole process, all threads (/proc/self/stat, 100 ticks a second). */
    private static long cpuMillis() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
    }

    private static long peakResidentKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
