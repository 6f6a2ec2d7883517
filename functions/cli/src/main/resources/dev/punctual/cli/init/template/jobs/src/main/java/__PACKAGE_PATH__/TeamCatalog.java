package __PACKAGE__;

import dev.punctual.job.CatalogProvider;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobEnvironment;

/**
 * The team's jobs. The Lambda handler, bin/punctual and the CDK app all find this provider through
 * META-INF/services/dev.punctual.job.CatalogProvider; add each new job's definition to the list.
 */
public final class TeamCatalog implements CatalogProvider {

    @Override
    public JobCatalog catalog(JobEnvironment env) {
        return JobCatalog.of(
                WeeklyDigestJob.definition());
    }
}
