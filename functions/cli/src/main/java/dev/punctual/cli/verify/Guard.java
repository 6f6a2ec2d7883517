package dev.punctual.cli.verify;

import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;

/** Runs one check so that an AWS call it cannot make is its own FAIL line, not the end of the report. */
final class Guard {

    private Guard() {}

    static CheckResult run(String name, Supplier<Check> check) {
        try {
            return check.get().result();
        } catch (SdkException e) {
            return CheckResult.fail(
                    name,
                    "the " + name + " check's calls to the stage",
                    "could not: " + e.getMessage(),
                    "check the credentials may make verify's calls (docs/runbook.md, section 2, lists them) and"
                            + " the region");
        }
    }
}
