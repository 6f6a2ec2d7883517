package dev.punctual.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * moto server (a DynamoDB-protocol emulator, Apache 2.0), installed on first use into a virtualenv in a
 * cache folder outside the source tree and run on a free loopback port for the lifetime of one JVM.
 * Used by the test harness and by {@code punctual demo}; see docs/decisions/0001-dynamodb-emulator.md.
 */
public final class MotoServer {

    /** Pinned: moto's DynamoDB behaviour (cancellation reasons, ALL_OLD) is what the tests rely on. */
    static final String MOTO_VERSION = "5.2.5";

    private static final String READY_PREFIX = "PUNCTUAL_MOTO_READY ";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);

    private final Process process;
    private final URI endpoint;
    private final Path venv;

    private MotoServer(Process process, URI endpoint, Path venv) {
        this.process = process;
        this.endpoint = endpoint;
        this.venv = venv;
    }

    /** The server's process id, for a test that looks at what the process holds. */
    public long pid() {
        return process.pid();
    }

    public URI endpoint() {
        return endpoint;
    }

    public String detail() {
        return "moto " + MOTO_VERSION + ", virtualenv " + venv;
    }

    /** Installs moto when needed, starts it, and registers its stop with the JVM's exit. */
    public static MotoServer start() {
        Path venv = cacheDir().resolve("moto-" + MOTO_VERSION);
        ensureInstalled(venv);
        MotoServer server = launch(venv);
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "punctual-moto-stop"));
        return server;
    }

    /** PUNCTUAL_CACHE_DIR, else $XDG_CACHE_HOME/punctual, else ~/.cache/punctual. */
    public static Path cacheDir() {
        Map<String, String> env = System.getenv();
        String explicit = env.get("PUNCTUAL_CACHE_DIR");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("punctual");
    }

    private static void ensureInstalled(Path venv) {
        Path marker = venv.resolve(".punctual-installed");
        if (Files.exists(marker)) {
            return;
        }
        try {
            Files.createDirectories(venv.getParent());
            Path lockFile = venv.getParent().resolve(venv.getFileName() + ".lock");
            // Two JVMs (two modules' tests, two developers' builds) may install at once: one waits.
            try (FileChannel channel =
                    FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock lock = channel.lock();
                try {
                    if (!Files.exists(marker)) {
                        install(venv);
                        Files.writeString(marker, MOTO_VERSION + System.lineSeparator());
                    }
                } finally {
                    lock.release();
                }
            }
        } catch (IOException e) {
            throw new LocalEmulatorException(
                    "Could not prepare the moto virtualenv in " + venv + ": " + e.getMessage(), e);
        }
    }

    private static void install(Path venv) throws IOException {
        String python = pythonCommand();
        System.err.println(
                "[punctual] installing moto[server]==" + MOTO_VERSION + " into " + venv + " (first use only)");
        deleteRecursively(venv);
        Path log = venv.getParent().resolve(venv.getFileName() + "-install.log");
        run(List.of(python, "-m", "venv", venv.toString()), log, venvHint(python));
        run(
                List.of(
                        venv.resolve("bin/python").toString(),
                        "-m",
                        "pip",
                        "install",
                        "--disable-pip-version-check",
                        "--quiet",
                        "moto[server]==" + MOTO_VERSION),
                log,
                "pip could not install moto[server]==" + MOTO_VERSION + " from PyPI; check network access to PyPI.");
    }

    private static String pythonCommand() {
        String configured = System.getenv("PUNCTUAL_PYTHON");
        String python = configured != null && !configured.isBlank() ? configured : "python3";
        try {
            Process probe = new ProcessBuilder(
                            python, "-c", "import sys; sys.exit(0 if sys.version_info >= (3, 10) else 3)")
                    .redirectErrorStream(true)
                    .start();
            probe.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            if (!probe.waitFor(30, TimeUnit.SECONDS) || probe.exitValue() != 0) {
                throw new LocalEmulatorException(
                        "Punctual's local DynamoDB emulator needs Python 3.10 or newer to run moto; '" + python
                                + "' is older or broken. " + installAdvice());
            }
            return python;
        } catch (IOException e) {
            throw new LocalEmulatorException(
                    "Punctual's local DynamoDB emulator needs '" + python
                            + "' (Python 3.10+) to run moto, and it was not found. " + installAdvice(),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalEmulatorException("Interrupted while probing " + python, e);
        }
    }

    private static String venvHint(String python) {
        return "'" + python + " -m venv' failed. On Debian or Ubuntu install the venv module: "
                + "apt-get install python3-venv. " + installAdvice();
    }

    private static String installAdvice() {
        return "Install python3 and python3-venv (Debian/Ubuntu: apt-get install python3 python3-venv), set "
                + "PUNCTUAL_PYTHON to a Python 3.10+ interpreter, or set PUNCTUAL_DYNAMODB_ENDPOINT to a running "
                + "DynamoDB-compatible endpoint.";
    }

    private static void run(List<String> command, Path log, String failureHint) throws IOException {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        try {
            if (!p.waitFor(INSTALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new LocalEmulatorException(
                        String.join(" ", command) + " did not finish within " + INSTALL_TIMEOUT + "; log: " + log);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new LocalEmulatorException("Interrupted while running " + String.join(" ", command), e);
        }
        if (p.exitValue() != 0) {
            throw new LocalEmulatorException(failureHint + " Command: " + String.join(" ", command) + " (exit "
                    + p.exitValue() + "). Last lines of " + log + ":\n" + tail(log));
        }
    }

    private static MotoServer launch(Path venv) {
        try {
            Path script = Files.createTempFile("punctual-moto-launcher", ".py");
            script.toFile().deleteOnExit();
            try (InputStream in = MotoServer.class.getResourceAsStream("moto_launcher.py")) {
                if (in == null) {
                    throw new LocalEmulatorException("moto_launcher.py is missing from the test classpath");
                }
                Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            Path log = Files.createTempFile("punctual-moto-server", ".log");
            ProcessBuilder builder = new ProcessBuilder(
                            venv.resolve("bin/python").toString(), script.toString())
                    .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
            isolateFromRealAws(builder.environment());
            Process process = builder.start();
            int port = awaitReady(process, log);
            return new MotoServer(process, URI.create("http://127.0.0.1:" + port), venv);
        } catch (IOException e) {
            throw new LocalEmulatorException("Could not start moto server from " + venv + ": " + e.getMessage(), e);
        }
    }

    /** moto runs botocore; a developer's profile or keys must neither break it nor reach it. */
    private static void isolateFromRealAws(Map<String, String> env) {
        env.keySet().removeIf(name -> name.startsWith("AWS_"));
        env.put("AWS_ACCESS_KEY_ID", "punctual-test");
        env.put("AWS_SECRET_ACCESS_KEY", "punctual-test");
        env.put("AWS_DEFAULT_REGION", "us-east-1");
        env.put("AWS_EC2_METADATA_DISABLED", "true");
    }

    private static int awaitReady(Process process, Path log) {
        CompletableFuture<Integer> ready = CompletableFuture.supplyAsync(() -> readPort(process));
        try {
            return ready.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            process.destroyForcibly();
            throw new LocalEmulatorException(
                    "moto server did not report ready within " + START_TIMEOUT + ". Its log (" + log + "):\n"
                            + tail(log),
                    e);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new LocalEmulatorException("Interrupted while waiting for moto server", e);
        }
    }

    private static int readPort(Process process) {
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        try {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith(READY_PREFIX)) {
                    return Integer.parseInt(
                            line.substring(READY_PREFIX.length()).trim());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("moto server exited before it was ready");
    }

    /** Closing stdin tells the launcher to stop; a forced kill follows if it does not. */
    public void stop() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
