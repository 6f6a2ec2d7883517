package dev.punctual.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.punctual.runtime.RenamedFields;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The old payload field names are read for one release (docs/decisions/0028-payload-fields-in-snake-case.md).
 * This fails on the build whose version reaches {@link RenamedFields#REFUSED_FROM}, so that release
 * removes them on purpose instead of reading them forever.
 */
class RenamedFieldsTest {

    @Test
    void theOldPayloadFieldNames_areGoneByTheReleaseThatRefusesThem() throws Exception {
        String version = BomTest.projectVersion(BomTest.repositoryRoot().resolve("pom.xml"));

        assertThat(compare(release(version), release(RenamedFields.REFUSED_FROM)))
                .as(
                        "version %s reads the old payload field names %s, which %s refuses: remove"
                                + " RenamedFields.OLD_TO_NEW's entries (and this check's release) in this release",
                        version, RenamedFields.OLD_TO_NEW.keySet(), RenamedFields.REFUSED_FROM)
                .isNegative();
    }

    @Test
    void everyNewName_isSnakeCase_andEveryOldOne_isWhatItWas() {
        assertThat(RenamedFields.OLD_TO_NEW).allSatisfy((old, renamed) -> {
            assertThat(renamed).matches("[a-z]+(_[a-z]+)*");
            assertThat(old).matches("[a-z]+([A-Z][a-z]+)+").isEqualTo(camel(renamed));
        });
    }

    /** {@code 0.1.0-SNAPSHOT} is before 0.1.0, and after every 0.0.x: its release number is what counts. */
    private static int[] release(String version) {
        return Arrays.stream(version.replace("-SNAPSHOT", "").split("\\."))
                .mapToInt(Integer::parseInt)
                .toArray();
    }

    private static int compare(int[] a, int[] b) {
        return Arrays.compare(a, b);
    }

    private static String camel(String snake) {
        StringBuilder s = new StringBuilder();
        boolean upper = false;
        for (char c : snake.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                s.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return s.toString();
    }
}
