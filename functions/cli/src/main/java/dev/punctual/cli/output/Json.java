package dev.punctual.cli.output;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The CLI's one JSON mapper, built on first use. Building an ObjectMapper loads some 400 classes; as a
 * static field of each command it was built for every command on every start (picocli instantiates them
 * all), `--version` included (docs/benchmarks.md, "CLI start-up").
 */
public final class Json {

    private Json() {}

    public static ObjectMapper mapper() {
        return Holder.MAPPER;
    }

    private static final class Holder {
        static final ObjectMapper MAPPER = new ObjectMapper();
    }
}
