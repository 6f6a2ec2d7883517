package dev.punctual.cli.input;

import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.runtime.Catalogs;
import dev.punctual.stage.StageFlags;
import java.util.Iterator;
import java.util.List;

/**
 * What shell completion offers where a command takes a job id or a switch. Picocli builds each list when
 * it writes the completion script ({@code generate-completion}), so the script completes the job ids of
 * the catalog the CLI was built with; after adding a job, generate it again. Nothing is loaded before
 * the script asks: a command's start never reads the catalog for this.
 */
public final class Completions {

    private Completions() {}

    /** The catalog's job ids, the built-in ones included; none when the catalog cannot be read. */
    public static final class JobIds implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            try {
                return Catalogs.load(JobEnvironment.definitionsOnly(StageFlags.defaultsFor("dev"))).jobs().stream()
                        .map(JobDefinition::id)
                        .iterator();
            } catch (RuntimeException unreadable) {
                // A completion script without job ids beats none; the commands say what is wrong.
                return List.<String>of().iterator();
            }
        }
    }

    /** {@code maintenance on|off}. */
    static final class OnOff implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("on", "off").iterator();
        }
    }

    /** maintenance's states: on, off, and hold (for as long as a command runs). */
    public static final class MaintenanceStates implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            return List.of("on", "off", "hold").iterator();
        }
    }
}
