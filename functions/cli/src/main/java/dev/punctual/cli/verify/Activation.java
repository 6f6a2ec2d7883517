package dev.punctual.cli.verify;

import dev.punctual.job.JobCatalog;
import dev.punctual.stage.StageFlags;
import java.time.Clock;
import java.util.List;

/** The activation checks ({@code --activate}): they write the ledger. */
public final class Activation {

    private Activation() {}

    public static List<CheckResult> run(
            StageAws aws, StageInventory inventory, StageFlags flags, JobCatalog catalog, Clock clock) {
        return List.of();
    }
}
