package __PACKAGE__;

import dev.punctual.job.Job;
import dev.punctual.job.JobContext;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobPreview;
import dev.punctual.job.JobResult;
import java.time.LocalDate;
import java.time.temporal.IsoFields;
import java.util.Map;
import java.util.Optional;

/**
 * The sample job: a weekly digest every Monday at 08:30 in Paris. Replace its body with your own work,
 * keyed by the occurrence (never by "now") and stamped with the fence, so a duplicate delivery or an
 * older lease holder cannot apply it twice.
 */
public final class WeeklyDigestJob implements Job {

    public static final String ID = "weekly-digest";

    /** The job's schedule and policies, declared once: the catalog, the CDK app and its test read it. */
    public static JobDefinition definition() {
        return JobDefinition.builder(ID)
                .description("The weekly digest, once per ISO week")
                .schedule("30 8 * * MON", "Europe/Paris") // Unix or EventBridge syntax; a zone is required
                .safeToVerify() // it has no visible effect yet, so `punctual verify --activate` may run it
                .job(services -> new WeeklyDigestJob())
                .build();
    }

    @Override
    public JobResult run(JobContext context) {
        LocalDate monday = context.localOccurrence().toLocalDate();
        String week = monday.getYear() + "-W" + monday.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
        context.log().info("digest composed", Map.of("week", week));
        return JobResult.of("week", week);
    }

    /** What a dry run reports: one digest, nothing written yet. */
    @Override
    public Optional<JobPreview> preview(JobContext context) {
        return Optional.of(JobPreview.deliveries(1));
    }
}
