package dev.punctual.infra;

import dev.punctual.job.JobCatalog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.services.lambda.Code;

/**
 * Synthesises a stage in-process, offline, as `cdk synth -c stage=NAME` would: with the context of the
 * repository's cdk.json (its feature flags change what is synthesised) and then the given keys.
 */
final class Synth {

    /** Tests of cadences alone measure from this day; synth itself measures from {@link Cadence#REFERENCE}. */
    static final Instant CADENCE_FROM = Instant.parse("2026-11-29T00:00:00Z");

    /**
     * The Lambda code every test stage deploys: a jar of the tests' own, written once under target/ with
     * fixed entry times, so its bytes (and so the asset hash in every template) are the same on every run
     * and machine. The tests never run it; they no longer need functions/lambda built first.
     */
    static final Path ASSET = Path.of("target", "test-lambda-asset", "punctual-test-lambda.jar");

    /** Zip's earliest representable time, written as local time: no time zone enters the bytes. */
    private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(1980, 1, 1, 0, 0);

    /** The catalog synth deploys: the fixture catalog's provider (functions/fixtures) and the built-in jobs. */
    static final JobCatalog CATALOG = PunctualApp.catalog(Stages.named("dev"));

    private Synth() {}

    static StageStack stage(String name) {
        return stage(Stages.named(name), CATALOG);
    }

    static StageStack stage(StageConfig config, JobCatalog catalog) {
        return PunctualApp.build(app(Map.of("stage", config.stage())), config, catalog, code());
    }

    /** Through the app's own context handling (stage and its overrides), as cdk.json runs it. */
    static StageStack fromContext(Map<String, String> context) {
        return PunctualApp.build(app(context), code());
    }

    static App app(Map<String, String> context) {
        Map<String, Object> merged = new LinkedHashMap<>(CdkJson.read().context());
        merged.putAll(context);
        return new App(
                AppProps.builder().context(merged).analyticsReporting(false).build());
    }

    static Code code() {
        return Code.fromAsset(asset().toString());
    }

    /** {@link #ASSET}, written when absent or different; the same bytes every time. */
    static synchronized Path asset() {
        byte[] bytes = assetBytes();
        Path path = ASSET.toAbsolutePath();
        try {
            if (!Files.isRegularFile(path) || !Arrays.equals(Files.readAllBytes(path), bytes)) {
                Files.createDirectories(path.getParent());
                Path written = Files.createTempFile(path.getParent(), "asset", ".tmp");
                Files.write(written, bytes);
                Files.move(written, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return path;
    }

    /** A manifest and a note, stored uncompressed with fixed times: nothing varies between runs. */
    static byte[] assetBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            entry(zip, "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n\r\n");
            entry(
                    zip,
                    "punctual-test-lambda.txt",
                    "The Lambda asset of Punctual's infra tests (Synth.java): synthesised, never run.\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void entry(ZipOutputStream zip, String name, String text) throws IOException {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        CRC32 crc = new CRC32();
        crc.update(content);
        ZipEntry entry = new ZipEntry(name);
        entry.setMethod(ZipEntry.STORED);
        entry.setSize(content.length);
        entry.setCompressedSize(content.length);
        entry.setCrc(crc.getValue());
        entry.setTimeLocal(ENTRY_TIME);
        zip.putNextEntry(entry);
        zip.write(content);
        zip.closeEntry();
    }
}
