package dev.punctual.runtime;

import dev.punctual.PunctualException;
import dev.punctual.job.CatalogProvider;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The one way the Lambda handler, the operator CLI and the CDK app get the catalog: the team's
 * {@link CatalogProvider}, found with {@link ServiceLoader}, followed by Punctual's built-in jobs.
 */
public final class Catalogs {

    /** Jobs every deployment runs, appended after the team's. */
    static final List<JobDefinition> BUILT_IN = List.of(MissedRunWatchdog.definition());

    private Catalogs() {}

    /** The team's catalog plus the built-in jobs; a fault when not exactly one provider is found. */
    public static JobCatalog load(JobEnvironment environment) {
        // Punctual's own loader: in the Lambda jar, the CLI jar and the CDK app it also loaded the team's module.
        return load(environment, Catalogs.class.getClassLoader());
    }

    /** A catalog given by name (a CDK app may name its provider) plus the built-in jobs. */
    public static JobCatalog load(JobEnvironment environment, CatalogProvider provider) {
        return withBuiltIns(provider.catalog(environment));
    }

    static JobCatalog load(JobEnvironment environment, ClassLoader classes) {
        return withBuiltIns(provider(classes).catalog(environment));
    }

    static CatalogProvider provider(ClassLoader classes) {
        List<CatalogProvider> found = ServiceLoader.load(CatalogProvider.class, classes).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
        if (found.size() != 1) {
            throw new PunctualException("job catalog: expected exactly one " + CatalogProvider.class.getName()
                    + " on the class path (named in META-INF/services/" + CatalogProvider.class.getName()
                    + " of the team's job module), found " + found.size() + ": "
                    + found.stream().map(p -> p.getClass().getName()).toList());
        }
        return found.get(0);
    }

    static JobCatalog withBuiltIns(JobCatalog team) {
        for (JobDefinition builtIn : BUILT_IN) {
            if (team.find(builtIn.id()).isPresent()) {
                throw new PunctualException("job catalog: id '" + builtIn.id()
                        + "' is a built-in job that every deployment runs; choose another id for the team's job");
            }
        }
        return team.plus(BUILT_IN);
    }
}
