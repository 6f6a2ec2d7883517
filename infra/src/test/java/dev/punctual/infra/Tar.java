package dev.punctual.infra;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Reads one entry of a ustar stream (npm packages are plain ustar, no extensions needed here). */
final class Tar {

    private static final int BLOCK = 512;

    private Tar() {}

    static Optional<byte[]> entry(InputStream in, String name) throws IOException {
        byte[] header = new byte[BLOCK];
        while (in.readNBytes(header, 0, BLOCK) == BLOCK && header[0] != 0) {
            String entryName = field(header, 345, 155).isEmpty()
                    ? field(header, 0, 100)
                    : field(header, 345, 155) + "/" + field(header, 0, 100);
            long size = Long.parseLong(field(header, 124, 12).trim(), 8);
            long padded = (size + BLOCK - 1) / BLOCK * BLOCK;
            if (entryName.equals(name)) {
                byte[] content = in.readNBytes((int) size);
                return Optional.of(content);
            }
            in.skipNBytes(padded);
        }
        return Optional.empty();
    }

    private static String field(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.US_ASCII);
    }
}
