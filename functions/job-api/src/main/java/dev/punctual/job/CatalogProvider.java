package dev.punctual.job;

/**
 * The one thing a team's job module implements: its catalog. The Lambda handler, the operator CLI and
 * the CDK app find it through {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/dev.punctual.job.CatalogProvider} file naming the class), so adding,
 * changing or removing a job never touches Punctual's own packages. Exactly one provider must be on
 * the class path.
 */
public interface CatalogProvider {

    /**
     * The team's jobs, with the services they need. Called once per process: in the Lambda's init, in
     * each CLI session, and at synth, where the environment has no stage resources to connect to. So
     * build clients on first use inside the job factories, never here.
     */
    JobCatalog catalog(JobEnvironment environment);
}
