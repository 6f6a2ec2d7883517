package dev.punctual.jepsen;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A process's history file: one JSON line per operation, appended with one unbuffered write each, so a
 * line handed to the kernel survives the process halting right after it (the kill between the side
 * effect and the commit). One file per process incarnation; the checker reads them all.
 */
public final class HistoryLog implements AutoCloseable {

    static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private static final String SUFFIX = ".jsonl";

    private final FileOutputStream out;

    private HistoryLog(FileOutputStream out) {
        this.out = out;
    }

    public static HistoryLog append(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return new HistoryLog(new FileOutputStream(file.toFile(), true));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open history " + file, e);
        }
    }

    public static Path fileFor(Path dir, String proc) {
        return dir.resolve("history-" + proc + SUFFIX);
    }

    public synchronized void write(Op op) {
        try {
            out.write((JSON.writeValueAsString(op) + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the history", e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every operation of every history file in the directory, ordered by invocation time. */
    public static List<Op> readAll(Path dir) {
        List<Op> ops = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(SUFFIX))
                    .sorted()
                    .toList()) {
                int lineNo = 0;
                for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                    lineNo++;
                    if (line.isBlank()) {
                        continue;
                    }
                    try {
                        ops.add(JSON.readValue(line, Op.class));
                    } catch (IOException e) {
                        throw new IllegalStateException(file + ":" + lineNo + " is not a history line: " + line, e);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read histories in " + dir, e);
        }
        ops.sort(Comparator.comparingLong(Op::t0).thenComparing(Op::proc));
        return ops;
    }
}
