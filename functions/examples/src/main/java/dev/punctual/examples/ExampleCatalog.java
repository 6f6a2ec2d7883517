package dev.punctual.examples;

import dev.punctual.catchup.CatchUpPolicy;
import dev.punctual.job.CatalogProvider;
import dev.punctual.job.EntityJob;
import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.job.JobTable;
import dev.punctual.job.LongRun;
import dev.punctual.job.MaintenanceCondition;
import dev.punctual.job.Once;
import dev.punctual.time.Blackout;
import dev.punctual.time.HolidayCalendar;
import java.time.Duration;
import java.time.LocalTime;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The jobs this repository deploys: examples of the patterns Punctual is for, and of a team's job
 * module. A team replaces this module with its own; the handler, the CLI and the CDK app find whichever
 * provider META-INF/services names.
 */
public final class ExampleCatalog implements CatalogProvider {

    /** The lock group of the jobs that touch reservations; they must never overlap. */
    public static final String RESERVATIONS_GROUP = "reservations";

    /**
     * The demo domain table every example job works on (single-table {@code pk}/{@code sk}). Its name
     * {@code DemoDomain} keeps the table's CloudFormation logical id from before tables were declared.
     */
    public static final JobTable DEMO_TABLE = JobTable.builder("DemoDomain")
            .environmentVariable("PUNCTUAL_DOMAIN_TABLE")
            .partitionKey("pk", JobTable.AttributeType.STRING)
            .sortKey("sk", JobTable.AttributeType.STRING)
            .actions(
                    "dynamodb:GetItem",
                    "dynamodb:PutItem",
                    "dynamodb:UpdateItem",
                    "dynamodb:DeleteItem",
                    "dynamodb:Query")
            .build();

    /**
     * Korea's public holidays, from a file the module packages (so it is in the Lambda's jar): the team
     * adds each year's dates before the year ends (docs/time.md, "Calendars").
     */
    public static final HolidayCalendar KR_PUBLIC_HOLIDAYS =
            HolidayCalendar.resource(ExampleCatalog.class, "calendars/kr-public-holidays.txt");

    /** The company's own closing days, kept beside the public holidays. */
    public static final HolidayCalendar COMPANY_CLOSING_DAYS =
            HolidayCalendar.resource(ExampleCatalog.class, "calendars/company-closing-days.txt");

    /**
     * The reservation system's nightly backup: no job of the reservations group runs from 03:00 to 03:30
     * Seoul time (decision 0034); their occurrences then are skipped (SKIP BLACKOUT), not missed.
     */
    public static final Blackout RESERVATIONS_BACKUP = Blackout.daily(
            LocalTime.of(3, 0), LocalTime.of(3, 30), "Asia/Seoul", "reservation system's nightly backup");

    /**
     * Where a data tool loads synthetic members for a test session (the demo's table, its own partition):
     * while any is there, every job of the stage skips ({@link #SYNTHETIC_MEMBER_DATA}).
     */
    public static final String SYNTHETIC_MEMBERS = "synthetic-members";

    /**
     * The source's shared environment skips every handler while synthetic member data exists and resumes
     * by itself once the data set is reset (decision 0036, 5): one Query of the partition per occurrence.
     */
    public static final MaintenanceCondition SYNTHETIC_MEMBER_DATA = MaintenanceCondition.whileItemsExist(
            "synthetic-members", DEMO_TABLE, SYNTHETIC_MEMBERS, "synthetic member data is loaded; reset it to resume");

    @Override
    public JobCatalog catalog(JobEnvironment env) {
        Supplier<DemoTable> table = Once.of(() -> ExampleClients.demoTable(env));
        // A fresh id per message, so two messages of one instant do not collide.
        Supplier<OutboxDelivery> outbox = Once.of(() -> new OutboxDelivery(
                table.get(), env.clock(), () -> UUID.randomUUID().toString()));
        return JobCatalog.of(
                        JobDefinition.builder("daily-report")
                                .description("Member report for the day, idempotent by local date")
                                .schedule("0 9 * * *", "America/New_York")
                                // Nobody needs it at 09:00:00 sharp: fired at a stable minute of 09:00-09:14,
                                // it stays out of the second every hourly and daily job fires in (decision 0035).
                                .spreadOver(Duration.ofMinutes(15))
                                .catchUp(CatchUpPolicy.oldestFirst(2, Duration.ofDays(3)))
                                .safeToVerify()
                                .uses(DEMO_TABLE)
                                .job(s -> new DailyReportJob(table.get()))
                                .build(),
                        JobDefinition.builder("expire-reservations")
                                .description("Expire reservations whose hold ran out")
                                .schedule("*/15 * * * *", "Asia/Seoul")
                                .lockGroup(RESERVATIONS_GROUP)
                                .catchUp(CatchUpPolicy.latestOnly(Duration.ofHours(1)))
                                .uses(DEMO_TABLE)
                                .job(s -> new ExpireReservationsJob(table.get()))
                                .build(),
                        JobDefinition.builder("refund-keys")
                                .description("Refund key deposits of expired reservations")
                                .schedule("5 * * * *", "Asia/Seoul")
                                .lockGroup(RESERVATIONS_GROUP)
                                .uses(DEMO_TABLE)
                                .job(s -> new RefundKeysJob(table.get()))
                                .build(),
                        JobDefinition.builder("purge-inactive-members")
                                .description("Delete members inactive for a year (destructive)")
                                .schedule("cron(0 3 ? * SUN *)", "Europe/Berlin")
                                .catchUp(CatchUpPolicy.none())
                                .maxAttempts(1)
                                .destructive()
                                // Where it may run at all, each Sunday's purge waits for an operator's approval
                                // (punctual approve purge-inactive-members --at T shows its counts first; 0041).
                                .requiresApprovalWhereDestructiveAllowed()
                                .pool(new FunctionPool("maintenance", 1024, Duration.ofMinutes(10)))
                                .uses(DEMO_TABLE)
                                .job(s -> new PurgeInactiveMembersJob(table.get()))
                                .build(),
                        JobDefinition.builder("send-reminders")
                                .description("Push reminders for reservations starting within a day")
                                .schedule("0 18 * * *", "Asia/Seoul")
                                // A reminder is worth sending on its day only: a missed one is recorded, never sent
                                // late.
                                .catchUp(CatchUpPolicy.none())
                                // The source's startingDeadlineSeconds: 600: a reminder that cannot start by 18:10
                                // is recorded as SKIP DEADLINE_PASSED and counted as missed (decision 0032).
                                .startDeadline(Duration.ofMinutes(10))
                                .externalDelivery()
                                .uses(DEMO_TABLE)
                                .job(s -> new ReminderJob(table.get()))
                                .build(),
                        JobDefinition.builder("settle-payouts")
                                .description("Settle refunded deposits with the bank, on Korean business days")
                                .schedule("0 17 * * *", "Asia/Seoul")
                                // Not on weekends, public holidays or the company's closing days, read in
                                // Asia/Seoul: those are SKIP CALENDAR, never counted as missed (decision 0034).
                                .businessDaysOf(KR_PUBLIC_HOLIDAYS)
                                .exceptDatesOf(COMPANY_CLOSING_DAYS)
                                .uses(DEMO_TABLE)
                                .job(s -> new SettlePayoutsJob(table.get()))
                                .build(),
                        JobDefinition.builder("month-end-close")
                                .description("Close the month: one statement per member, a chunk each (a long job)")
                                .schedule("cron(0 23 L * ? *)", "Asia/Seoul")
                                // One Step Functions execution per month-end, at most 6 hours, two members'
                                // statements at a time; a member's chunk is tried 3 times (decision 0039).
                                .runsLong(LongRun.within(Duration.ofHours(6)).chunksAtOnce(2))
                                .maxAttempts(3)
                                .catchUp(CatchUpPolicy.oldestFirst(1, Duration.ofDays(32)))
                                .uses(DEMO_TABLE)
                                .job(s -> new MonthEndCloseJob(table.get()))
                                .build(),
                        JobDefinition.builder("member-digest")
                                .description("Member digest every other Monday, 09:00 in Berlin (an RRULE)")
                                // No cron says "every other week": deployed as cron(0 9 ? * MON 2026-2199), whose
                                // other Mondays are answered OUTSIDE_RULE with no ledger write (decision 0049).
                                .schedule(
                                        "DTSTART:20261214T090000 RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO",
                                        "Europe/Berlin")
                                .catchUp(CatchUpPolicy.oldestFirst(1, Duration.ofDays(15)))
                                .uses(DEMO_TABLE)
                                .job(s -> new MemberDigestJob(table.get()))
                                .build(),
                        JobDefinition.builder("tenant-report")
                                .description("Each tenant's report at 09:00 in the tenant's own zone")
                                .schedule("0 9 * * *", "UTC")
                                // One schedule per tenant, put at runtime (schedules put / import): each sets
                                // its zone, may set its own expression and its locale (docs/entities.md).
                                .perEntity(EntityJob.parameters("locale"))
                                .uses(DEMO_TABLE)
                                .job(s -> new TenantReportJob(table.get()))
                                .build())
                .withBlackout(RESERVATIONS_GROUP, RESERVATIONS_BACKUP)
                .withMaintenanceCondition(SYNTHETIC_MEMBER_DATA)
                .withDelivery(message -> outbox.get().send(message));
    }
}
