package dev.punctual.examples;

import dev.punctual.catchup.CatchUpMode;
import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.runtime.MissedRunWatchdog;
import java.time.Duration;

/**
 * The jobs this repository deploys: examples of the patterns Punctual is for. A team replaces them with
 * its own; the handler and the CDK app read whatever {@link #catalog()} returns.
 */
public final class ExampleCatalog {

    /** The lock group of the jobs that touch reservations; they must never overlap. */
    public static final String RESERVATIONS_GROUP = "reservations";

    private ExampleCatalog() {}

    public static JobCatalog catalog() {
        return JobCatalog.of(
                JobDefinition.builder("daily-report")
                        .description("Member report for the day, idempotent by local date")
                        .schedule("0 9 * * *", "America/New_York")
                        .catchUp(new CatchUpPolicy(2, Duration.ofDays(3), CatchUpMode.OLDEST_FIRST))
                        .job(s -> new DailyReportJob(new DemoTable(s.dynamo(), s.domainTable())))
                        .build(),
                JobDefinition.builder("expire-reservations")
                        .description("Expire reservations whose hold ran out")
                        .schedule("*/15 * * * *", "Asia/Seoul")
                        .lockGroup(RESERVATIONS_GROUP)
                        .catchUp(new CatchUpPolicy(1, Duration.ofHours(1), CatchUpMode.LATEST_ONLY))
                        .job(s -> new ExpireReservationsJob(new DemoTable(s.dynamo(), s.domainTable())))
                        .build(),
                JobDefinition.builder("refund-keys")
                        .description("Refund key deposits of expired reservations")
                        .schedule("5 * * * *", "Asia/Seoul")
                        .lockGroup(RESERVATIONS_GROUP)
                        .job(s -> new RefundKeysJob(new DemoTable(s.dynamo(), s.domainTable())))
                        .build(),
                JobDefinition.builder("purge-inactive-members")
                        .description("Delete members inactive for a year (destructive)")
                        .schedule("cron(0 3 ? * SUN *)", "Europe/Berlin")
                        .catchUp(CatchUpPolicy.none())
                        .maxAttempts(1)
                        .destructive()
                        .pool(new FunctionPool("maintenance", 1024, Duration.ofMinutes(10)))
                        .job(s -> new PurgeInactiveMembersJob(new DemoTable(s.dynamo(), s.domainTable())))
                        .build(),
                JobDefinition.builder("send-reminders")
                        .description("Push reminders for reservations starting within a day")
                        .schedule("0 18 * * *", "Asia/Seoul")
                        .catchUp(new CatchUpPolicy(1, Duration.ofHours(3), CatchUpMode.LATEST_ONLY))
                        .externalDelivery()
                        .job(s -> new ReminderJob(new DemoTable(s.dynamo(), s.domainTable())))
                        .build(),
                JobDefinition.builder(MissedRunWatchdog.ID)
                        .description("Notices schedules that stopped firing (emits Overdue per job)")
                        .schedule("7 * * * *", "UTC")
                        .catchUp(CatchUpPolicy.none())
                        .maxAttempts(1)
                        .job(s -> new MissedRunWatchdog(s.ledger(), s.catalog()))
                        .build());
    }
}
