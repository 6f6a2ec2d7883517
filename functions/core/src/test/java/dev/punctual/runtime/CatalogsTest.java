package dev.punctual.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.PunctualException;
import dev.punctual.job.CatalogProvider;
import dev.punctual.job.DeliveryReceipt;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobEnvironment;
import dev.punctual.job.JobResult;
import dev.punctual.stage.StageFlags;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the handler, the CLI and the CDK app find the team's catalog, and what they get. */
class CatalogsTest {

    private static final JobEnvironment ENV = JobEnvironment.definitionsOnly(StageFlags.defaultsFor("dev"));

    @TempDir
    Path services;

    @Test
    void noProviderOnTheClassPath_isRefused_sayingWhatToAdd() {
        // core's own test class path has no job module.
        assertThatThrownBy(() -> Catalogs.load(ENV))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("expected exactly one dev.punctual.job.CatalogProvider")
                .hasMessageContaining("META-INF/services/dev.punctual.job.CatalogProvider")
                .hasMessageEndingWith("found 0: []");
    }

    @Test
    void twoProviders_areRefused_namingBoth() throws IOException {
        try (URLClassLoader classes = withProviders(TeamCatalog.class, OtherTeamCatalog.class)) {
            assertThatThrownBy(() -> Catalogs.load(ENV, classes))
                    .isInstanceOf(PunctualException.class)
                    .hasMessageContaining(
                            "found 2: [" + TeamCatalog.class.getName() + ", " + OtherTeamCatalog.class.getName() + "]");
        }
    }

    @Test
    void oneProvider_givesItsJobs_thenTheBuiltInWatchdog_withItsDeliveryPort() throws IOException {
        try (URLClassLoader classes = withProviders(TeamCatalog.class)) {
            JobCatalog catalog = Catalogs.load(ENV, classes);

            assertThat(catalog.ids()).containsExactly("team-job", MissedRunWatchdog.ID);
            assertThat(catalog.delivery()).isPresent();
        }
    }

    @Test
    void aTeamJobWithTheBuiltInId_isRefused() {
        JobCatalog team = JobCatalog.of(job(MissedRunWatchdog.ID));

        assertThatThrownBy(() -> Catalogs.withBuiltIns(team))
                .isInstanceOf(PunctualException.class)
                .hasMessageContaining("'missed-run-watchdog' is a built-in job");
    }

    private URLClassLoader withProviders(Class<?>... providers) throws IOException {
        Path file = services.resolve("META-INF/services/" + CatalogProvider.class.getName());
        Files.createDirectories(file.getParent());
        Files.write(file, Arrays.stream(providers).map(Class::getName).toList());
        return new URLClassLoader(
                new URL[] {services.toUri().toURL()}, getClass().getClassLoader());
    }

    private static JobDefinition job(String id) {
        return JobDefinition.builder(id)
                .schedule("0 9 * * *", "UTC")
                .job(s -> context -> JobResult.empty())
                .build();
    }

    /** A team's provider, as its module's META-INF/services would name it. */
    public static final class TeamCatalog implements CatalogProvider {
        @Override
        public JobCatalog catalog(JobEnvironment environment) {
            return new JobCatalog(List.of(job("team-job")))
                    .withDelivery(m -> new DeliveryReceipt.Sent(m.channel(), m.recipient()));
        }
    }

    /** A second provider, as when two job modules land in one jar. */
    public static final class OtherTeamCatalog implements CatalogProvider {
        @Override
        public JobCatalog catalog(JobEnvironment environment) {
            return JobCatalog.of(job("other-job"));
        }
    }
}
