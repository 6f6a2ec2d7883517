package dev.punctual.cli.verify;

import dev.punctual.job.JobPreview;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The counts each delivering or destructive job would touch at its latest occurrence, from the job's
 * preview as the deployed function computes it in a dry run ({@link JobPreviews}; counts only, never rows
 * or recipients): what the source material asks to know before such a job is enabled. A job that cannot
 * tell, or whose preview failed, is a WARN: the counts are for the operator to read, not a fault of the
 * stage.
 *
 * @param previews by job id
 */
public record DryRunCountsCheck(Map<String, Preview> previews) implements Check {

    /** One job's preview at an occurrence, or why there is none. */
    public record Preview(Optional<Instant> occurrence, Optional<JobPreview> counts, String problem) {

        public static Preview of(Instant occurrence, JobPreview counts) {
            return new Preview(Optional.of(occurrence), Optional.of(counts), "");
        }

        public static Preview error(String problem) {
            return new Preview(Optional.empty(), Optional.empty(), problem);
        }
    }

    @Override
    public String name() {
        return "dry-run";
    }

    @Override
    public CheckResult result() {
        String checked = "each delivering or destructive job's dry-run counts (counts only, no personal data)";
        if (previews.isEmpty()) {
            return CheckResult.pass(name(), checked, "no delivering or destructive job in the catalog");
        }
        List<String> seen = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        previews.forEach((job, preview) -> {
            if (preview.counts().isPresent()) {
                JobPreview p = preview.counts().get();
                seen.add(job + " at " + preview.occurrence().orElseThrow() + ": " + p.changes() + " change(s), "
                        + p.deliveries() + " delivery(ies), " + p.deletions() + " deletion(s)");
            } else {
                seen.add(job + ": not available (" + preview.problem() + ")");
                missing.add(job);
            }
        });
        if (missing.isEmpty()) {
            return CheckResult.pass(name(), checked, String.join("; ", seen));
        }
        return CheckResult.warn(
                name(),
                checked,
                String.join("; ", seen),
                "count the targets of " + String.join(", ", missing) + " yourself before enabling them"
                        + " (docs/runbook.md, section 1)");
    }
}
