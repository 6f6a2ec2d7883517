package dev.punctual.demo;

import dev.punctual.PunctualException;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.job.JobTable;
import dev.punctual.runtime.Catalogs;
import dev.punctual.stage.StageFlags;
import java.util.List;
import java.util.Set;

/**
 * What the demo's script knows of the examples, as data: their job ids, their lock group and the table
 * they declare. The CLI does not import the examples (a team's CLI holds the team's catalog instead);
 * the demo finds them on the class path, the way every command finds a catalog, and says so when the
 * class path holds another one.
 */
final class ExampleDomain {

    /** The examples' jobs the script drives; a catalog without them is not the one the demo is written for. */
    static final Set<String> JOBS =
            Set.of("daily-report", "expire-reservations", "refund-keys", "purge-inactive-members", "send-reminders");

    /** The lock group of the jobs that touch reservations (the outage the script stages hits them). */
    static final String RESERVATIONS_GROUP = "reservations";

    /** The table the example jobs declare: single-table pk/sk, partitions per kind of item. */
    static final String TABLE = "DemoDomain";

    static final String MEMBERS = "members";

    /** The partition the examples' maintenance condition reads: synthetic member data (decision 0036, 5). */
    static final String SYNTHETIC_MEMBERS = "synthetic-members";

    static final String RESERVATIONS = "reservations";

    private ExampleDomain() {}

    /** The examples' declared table, or a fault naming what the class path holds instead. */
    static JobTable declaredTable() {
        JobCatalog catalog = Catalogs.load(JobEnvironment.definitionsOnly(StageFlags.defaultsFor("dev")));
        List<String> ids =
                catalog.jobs().stream().map(JobDefinition::id).sorted().toList();
        if (!ids.containsAll(JOBS)) {
            throw new PunctualException("demo: it runs on Punctual's example catalog (bin/punctual demo in Punctual's"
                    + " own repository), and this class path holds another one, with jobs " + ids
                    + "; try your own jobs with `run --endpoint` instead (docs/jobs.md)");
        }
        return catalog.jobs().stream()
                .flatMap(job -> job.tables().stream())
                .filter(table -> table.name().equals(TABLE))
                .findFirst()
                .orElseThrow(() -> new PunctualException(
                        "demo: the example catalog declares no table " + TABLE + "; the demo seeds that one"));
    }
}
