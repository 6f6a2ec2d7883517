package dev.punctual.cli.schedules;

import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * An import's progress on stderr, never stdout: done/total, rate per second and time left. On a terminal
 * one line redrawn in place; otherwise (CI logs) a plain line every {@value #PLAIN_EVERY_NANOS}
 * nanoseconds and at the end. Time is injected.
 */
final class ImportProgress {

    static final long PLAIN_EVERY_NANOS = 5_000_000_000L;

    private final PrintWriter err;
    private final boolean terminal;
    private final LongSupplier nanoTime;
    private final int total;
    private final long start;
    private long lastPrinted;
    private int done;

    ImportProgress(PrintWriter err, boolean terminal, LongSupplier nanoTime, int total) {
        this.err = err;
        this.terminal = terminal;
        this.nanoTime = nanoTime;
        this.total = total;
        this.start = nanoTime.getAsLong();
        this.lastPrinted = start;
    }

    synchronized void step() {
        done++;
        long now = nanoTime.getAsLong();
        if (terminal) {
            err.print("\r" + line(now));
            if (done == total) {
                err.println();
            }
            err.flush();
        } else if (now - lastPrinted >= PLAIN_EVERY_NANOS || done == total) {
            lastPrinted = now;
            err.println(line(now));
            err.flush();
        }
    }

    String line(long now) {
        double seconds = (now - start) / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        String left = rate > 0 ? Math.round((total - done) / rate) + " s left" : "time left unknown";
        int width = 20;
        int filled = total == 0 ? width : (int) ((long) done * width / total);
        return "import [" + "#".repeat(filled) + " ".repeat(width - filled) + "] " + done + "/" + total + ", "
                + Math.round(rate) + "/s, " + left;
    }
}
