package dev.punctual.demo;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where the demo's structured log lines go: one JSON object per line into a file the demo names, as
 * CloudWatch would receive them, so a reader can query what the timeline summarises. It also keeps the
 * lines since {@link #takeRecent()}, for the timeline to read what one delivery logged.
 */
final class DemoLog implements Consumer<String>, AutoCloseable {

    private final Path file;
    private final BufferedWriter writer;
    private final List<String> recent = new ArrayList<>();
    private int count;

    DemoLog(Path file) {
        this.file = file.toAbsolutePath();
        try {
            Files.createDirectories(this.file.getParent());
            this.writer = Files.newBufferedWriter(this.file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the demo's log to " + this.file, e);
        }
    }

    @Override
    public synchronized void accept(String line) {
        try {
            writer.write(line);
            writer.newLine();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the demo's log to " + file, e);
        }
        recent.add(line);
        count++;
    }

    /** The lines written since the last call. */
    synchronized List<String> takeRecent() {
        List<String> lines = List.copyOf(recent);
        recent.clear();
        return lines;
    }

    Path file() {
        return file;
    }

    synchronized int count() {
        return count;
    }

    @Override
    public synchronized void close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the demo's log to " + file, e);
        }
    }
}
