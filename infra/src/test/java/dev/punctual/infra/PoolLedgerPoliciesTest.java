package dev.punctual.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.punctual.job.FunctionPool;
import dev.punctual.job.JobCatalog;
import dev.punctual.job.JobDefinition;
import dev.punctual.job.JobResult;
import dev.punctual.stage.StageConfigException;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;

/** How a pool's ledger keys are split over statements and packed into managed policies within IAM's limits. */
class PoolLedgerPoliciesTest {

    private static final FunctionPool BATCH = new FunctionPool("batch", 512, Duration.ofMinutes(5));

    @Test
    void theCatalogsPools_eachFitOnePolicy() {
        for (FunctionPool pool : Synth.CATALOG.pools()) {
            List<PoolLedgerPolicies.Grant> grants =
                    PoolLedgerPolicies.grants(PoolLedgerKeys.of(Synth.CATALOG, pool.name()));

            assertThat(PoolLedgerPolicies.packed(grants)).as(pool.name()).hasSize(1);
        }
    }

    @Test
    void twoThousandJobsInThreePools_asTheCostModelSynthesises_fitHalfTheRolesQuota() {
        JobCatalog generated = ScaleTest.generated(2_000);

        for (FunctionPool pool : generated.pools()) {
            List<List<PoolLedgerPolicies.Grant>> packed =
                    PoolLedgerPolicies.packed(PoolLedgerPolicies.grants(PoolLedgerKeys.of(generated, pool.name())));

            assertThat(packed).as(pool.name()).hasSizeLessThanOrEqualTo(PoolLedgerPolicies.MAX_POLICIES / 2);
            assertThat(packed)
                    .allSatisfy(policy -> assertThat(100
                                    + policy.stream()
                                            .mapToInt(PoolLedgerPolicies.Grant::characters)
                                            .sum())
                            .isLessThanOrEqualTo(PoolLedgerPolicies.MAX_POLICY_CHARACTERS));
        }
    }

    @Test
    void keysSplitOverStatements_areEveryKeyOnce_noStatementOverItsShare() {
        PoolLedgerKeys keys = PoolLedgerKeys.of(ScaleTest.generated(2_000), FunctionPool.DEFAULT.name());

        List<PoolLedgerPolicies.Grant> puts = PoolLedgerPolicies.grants(keys).stream()
                .filter(grant -> grant.actions().contains("dynamodb:PutItem"))
                .toList();

        assertThat(puts).hasSizeGreaterThan(1);
        assertThat(puts.stream().flatMap(grant -> grant.keys().stream()).toList())
                .isEqualTo(keys.runItems());
        assertThat(puts)
                .allSatisfy(grant -> assertThat(grant.keys().stream()
                                .mapToInt(PoolLedgerPolicies.Grant::quoted)
                                .sum())
                        .isLessThanOrEqualTo(PoolLedgerPolicies.KEYS_PER_STATEMENT));
    }

    @Test
    void aPoolNeedingMorePoliciesThanARoleTakes_isRefused_namingThePoolAndTheQuota() {
        JobCatalog crowded = new JobCatalog(IntStream.range(0, 1_000)
                .mapToObj(i -> JobDefinition.builder("job-with-a-long-descriptive-identifier-no-%03d".formatted(i))
                        .schedule("0 * * * *", "UTC")
                        .pool(BATCH)
                        .job(services -> context -> JobResult.empty())
                        .build())
                .toList());
        Stack stack = new Stack(new App(), "Bare");
        Role role = Role.Builder.create(stack, "Role")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .build();

        assertThatThrownBy(() -> new PoolLedgerPolicies(
                        stack,
                        "Ledger",
                        "arn:aws:dynamodb:eu-central-1:111111111111:table/ledger",
                        PoolLedgerKeys.of(crowded, "batch"),
                        role))
                .isInstanceOf(StageConfigException.class)
                .hasMessageStartingWith("pool batch: the ledger keys of its 1000 jobs and 0 shared groups need ")
                .hasMessageContaining("expected at most " + PoolLedgerPolicies.MAX_POLICIES)
                .hasMessageContaining("spread its jobs over more pools");
    }
}
