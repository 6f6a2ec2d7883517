package dev.punctual.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.base.DescribedPredicate.or;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.punctual.ledger.LockSlots;
import dev.punctual.ledger.Retention;
import dev.punctual.ledger.RunStatus;
import dev.punctual.ledger.Trigger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The allowed dependency directions between Punctual's packages (docs/architecture.md), checked on the
 * compiled classes of every module, the test kit included. Maven's module edges already forbid most
 * wrong turns across modules; these rules also hold inside a module, where the compiler would let one by.
 */
class DependencyRulesTest {

    private static final JavaClasses PUNCTUAL = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.punctual");

    // Packages, in ArchUnit's notation: "x.." is x and its subpackages, "x" alone is x only.
    private static final String JAVA = "java..";
    private static final String ROOT = "dev.punctual";
    private static final String TIME = "dev.punctual.time..";
    private static final String CATCH_UP = "dev.punctual.catchup..";
    private static final String LEDGER = "dev.punctual.ledger";
    /** The store's primitives and the engine over them: for store implementations only. */
    private static final String LEDGER_SPI = "dev.punctual.ledger.spi";
    /** The store implementations: DynamoDB here; the test kit's in-memory and faulty stores. */
    private static final String[] LEDGER_STORES = {"dev.punctual.ledger.dynamodb..", "dev.punctual.ledger.testkit.."};

    private static final String JOB = "dev.punctual.job..";
    private static final String RUNTIME = "dev.punctual.runtime..";
    private static final String EVENTS = "dev.punctual.events";
    private static final String OBSERVABILITY = "dev.punctual.observability..";
    /** The runtime's outcome vocabulary: why an occurrence ended so, and the line that says it. */
    private static final String OUTCOME = "dev.punctual.outcome..";
    /** Entity schedules as they should be: checked, named, keyed; no client, no SDK. */
    private static final String ENTITY = "dev.punctual.entity..";

    private static final String JSON = "dev.punctual.json..";
    private static final String STAGE = "dev.punctual.stage..";

    /**
     * Long jobs' hand-off port and names (decision 0039): the package itself only, a port like the ledger's;
     * its Step Functions adapter ({@code .stepfunctions}) is an adapter.
     */
    private static final String LONG_RUN = "dev.punctual.longrun";

    /** The core: plain Java, tested without any server. */
    private static final String[] CORE = {
        ROOT,
        TIME,
        CATCH_UP,
        LEDGER,
        LEDGER_SPI,
        JOB,
        RUNTIME,
        EVENTS,
        OBSERVABILITY,
        OUTCOME,
        ENTITY,
        JSON,
        STAGE,
        LONG_RUN
    };

    /** The adapters between the core and AWS. */
    private static final String[] ADAPTERS = {
        "dev.punctual.ledger.dynamodb..",
        "dev.punctual.events.eventbridge..",
        "dev.punctual.handler..",
        "dev.punctual.entities..",
        "dev.punctual.longrun.stepfunctions.."
    };

    /** The operator tool: never in the Lambda jar, so nothing the Lambda runs may need it. */
    private static final String[] OPERATOR = {"dev.punctual.cli..", "dev.punctual.demo..", "dev.punctual.local.."};

    private static final String EXAMPLES = "dev.punctual.examples..";

    /** The catalog Punctual's own tests run on: a test-scope module, like a team's job module in shape. */
    private static final String FIXTURES = "dev.punctual.fixtures..";

    /**
     * The test kit's classes, told apart by where they were loaded from: its runtime fixtures share the
     * runtime's package (they use its package-private seams), so the package alone cannot say.
     */
    private static final DescribedPredicate<JavaClass> TEST_KIT =
            DescribedPredicate.describe("in the test kit module", DependencyRulesTest::isFromTheTestKit);

    /** What test code is written with: the test kit may use these, nothing shipped may. */
    private static final String[] TEST_LIBRARIES = {
        "org.junit..", "org.assertj..", "org.opentest4j..", "com.fasterxml.jackson.."
    };

    /** What a team's job module is written against: the job-api module's packages. */
    private static final String[] JOB_API = {ROOT, TIME, CATCH_UP, JOB, STAGE, OBSERVABILITY, JSON};

    /**
     * The ledger's value types that are part of the job API's vocabulary (how a run was triggered, kept),
     * and the lock items a group of capacity N is made of (decision 0051: the catalog names its slots).
     */
    private static final Class<?>[] LEDGER_VALUES = {Trigger.class, Retention.class, RunStatus.class, LockSlots.class};

    @Test
    void theRulesSeeEveryModule() {
        assertThat(PUNCTUAL.containPackage("dev.punctual.time")).isTrue();
        assertThat(PUNCTUAL.containPackage("dev.punctual.ledger.spi")).isTrue();
        assertThat(PUNCTUAL.containPackage("dev.punctual.runtime")).isTrue();
        assertThat(PUNCTUAL.containPackage("dev.punctual.handler")).isTrue();
        assertThat(PUNCTUAL.containPackage("dev.punctual.examples")).isTrue();
        assertThat(PUNCTUAL.containPackage("dev.punctual.fixtures")).isTrue();
        assertThat(PUNCTUAL.containPackage("dev.punctual.cli")).isTrue();
        assertThat(PUNCTUAL.containPackage("dev.punctual.hold")).isTrue();
        assertThat(PUNCTUAL.get("dev.punctual.runtime.JobTestRuntime"))
                .as("the test kit's classes are imported and recognised")
                .matches(TEST_KIT);
        assertThat(PUNCTUAL.get("dev.punctual.runtime.PunctualRuntime")).matches(not(TEST_KIT));
    }

    @Test
    void theDocsPackageTable_namesEveryPackageTheRulesSee() throws IOException {
        String doc = Files.readString(Path.of("..", "..", "docs", "architecture.md"));
        int start = doc.indexOf("## Packages");
        String table = doc.substring(start, doc.indexOf("\n## ", start));
        Set<String> packages = PUNCTUAL.stream()
                .map(JavaClass::getPackageName)
                .filter(p -> !p.equals(ROOT)) // PunctualException, named in the modules table
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(packages).isNotEmpty().allSatisfy(p -> assertThat(table).contains("`" + p + "`"));
    }

    @Test
    void hold_buildsOnTheLedgersPortAndTheCatalog_neverTheLedgersStoresOrTheAwsSdk() {
        classes()
                .that()
                .resideInAPackage("dev.punctual.hold..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(JAVA, ROOT, LEDGER, OBSERVABILITY, JOB, RUNTIME, "dev.punctual.hold..")
                .check(PUNCTUAL);
    }

    @Test
    void time_dependsOnNothingOfPunctualButItsFault() {
        classes()
                .that()
                .resideInAPackage(TIME)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(JAVA, ROOT, TIME)
                .check(PUNCTUAL);
    }

    @Test
    void catchUp_dependsOnTimeOnly() {
        classes()
                .that()
                .resideInAPackage(CATCH_UP)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(JAVA, ROOT, TIME, CATCH_UP)
                .check(PUNCTUAL);
    }

    @Test
    void ledger_dependsOnCatchUpAndTime_neverOnTheRuntimeOrJobs() {
        classes()
                .that()
                .resideInAPackage(LEDGER)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(JAVA, ROOT, TIME, CATCH_UP, LEDGER, OBSERVABILITY, JSON, STAGE)
                .check(PUNCTUAL);
    }

    /**
     * A reason names the ledger's skip category it is recorded under, so the vocabulary sits above the
     * ledger and below the runtime; the ledger, which the vocabulary names, never names it back.
     */
    @Test
    void outcome_dependsOnTheLedgersApiAndTheLogOnly() {
        classes()
                .that()
                .resideInAPackage(OUTCOME)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(JAVA, ROOT, LEDGER, OBSERVABILITY, JSON, OUTCOME)
                .check(PUNCTUAL);
    }

    /** What every entry point checks an entity schedule with depends on the job API only, never the runtime. */
    @Test
    void entity_dependsOnTheJobApiOnly() {
        classes()
                .that()
                .resideInAPackage(ENTITY)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(concat(new String[] {JAVA, ENTITY}, JOB_API))
                .check(PUNCTUAL);
    }

    @Test
    void ledgerSpi_dependsOnTheLedgersApiOnly() {
        // One way: the spi speaks the port's values; the port never names a store's primitive.
        classes()
                .that()
                .resideInAPackage(LEDGER_SPI)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(JAVA, ROOT, LEDGER, LEDGER_SPI)
                .check(PUNCTUAL);
    }

    @Test
    void ledgerSpi_isUsedOnlyByTheStoreImplementations() {
        // The runtime, the handler, the CLI, events and jobs get a RunLedger; only a store sees how it is made.
        noClasses()
                .that()
                .resideOutsideOfPackages(concat(new String[] {LEDGER_SPI}, LEDGER_STORES))
                .should()
                .dependOnClassesThat()
                .resideInAPackage(LEDGER_SPI)
                .check(PUNCTUAL);
    }

    @Test
    void runtime_dependsOnTheCore_neverOnAnAdapter() {
        classes()
                .that()
                .resideInAPackage(RUNTIME)
                .and(not(TEST_KIT))
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(concat(new String[] {JAVA}, CORE))
                .check(PUNCTUAL);
    }

    @Test
    void jobApi_isFreeOfTheAwsSdk_andOfTheLedgersInternals() {
        classes()
                .that()
                .resideInAnyPackage(JOB_API)
                .should()
                .onlyDependOnClassesThat(
                        or(resideInAnyPackage(JAVA), resideInAnyPackage(JOB_API), belongToAnyOf(LEDGER_VALUES)))
                .check(PUNCTUAL);
    }

    @Test
    void theCore_hasNoAwsSdkOrLibrary_andNeverDependsOnAdaptersExamplesFixturesOrTheOperatorTool() {
        noClasses()
                .that()
                .resideInAnyPackage(CORE)
                .and(not(TEST_KIT))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(
                        new String[] {
                            "software.amazon..", "com.amazonaws..", "com.fasterxml..", "picocli..", "org.crac.."
                        },
                        ADAPTERS,
                        OPERATOR,
                        new String[] {EXAMPLES, FIXTURES}))
                .check(PUNCTUAL);
    }

    @Test
    void adapters_neverDependOnTheExamplesTheFixturesOrTheOperatorTool() {
        noClasses()
                .that()
                .resideInAnyPackage(ADAPTERS)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(OPERATOR, new String[] {EXAMPLES, FIXTURES}))
                .check(PUNCTUAL);
    }

    @Test
    void theOperatorTool_neverDependsOnTheExamplesOrTheFixtures() {
        // The CLI and the demo read whichever catalog the class path holds (a team's, or Punctual's examples
        // for bin/punctual demo), as data: importing one would tie every team's CLI to it.
        noClasses()
                .that()
                .resideInAnyPackage(OPERATOR)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(EXAMPLES, FIXTURES)
                .check(PUNCTUAL);
    }

    @Test
    void examples_dependOnTheJobApiOnly_plusTheirOwnAwsClients() {
        classes()
                .that()
                .resideInAPackage(EXAMPLES)
                .should()
                .onlyDependOnClassesThat(or(
                        resideInAnyPackage(JAVA, EXAMPLES, "software.amazon.awssdk.."),
                        resideInAnyPackage(JOB_API),
                        belongToAnyOf(LEDGER_VALUES)))
                .check(PUNCTUAL);
    }

    @Test
    void fixtures_dependOnTheJobApiOnly_plusTheirOwnAwsClients() {
        // Shaped as a team's job module, so what Punctual's tests prove on them holds for a team's.
        classes()
                .that()
                .resideInAPackage(FIXTURES)
                .should()
                .onlyDependOnClassesThat(or(
                        resideInAnyPackage(JAVA, FIXTURES, "software.amazon.awssdk.."),
                        resideInAnyPackage(JOB_API),
                        belongToAnyOf(LEDGER_VALUES)))
                .check(PUNCTUAL);
    }

    @Test
    void nothingOutsideTheFixtures_dependsOnThem() {
        // A test-scope artifact, like the test kit: a shipped class (or the examples) that needed it would
        // fail at run time, and a team that drops it would lose more than Punctual's own tests.
        noClasses()
                .that()
                .resideOutsideOfPackage(FIXTURES)
                .should()
                .dependOnClassesThat()
                .resideInAPackage(FIXTURES)
                .check(PUNCTUAL);
    }

    @Test
    void testKit_buildsOnTheCoreAndTestLibraries_neverOnTheAwsSdkAdaptersOrTheOperatorTool() {
        // A store written elsewhere (a future store, a team's) runs these suites with no AWS dependency.
        classes()
                .that(TEST_KIT)
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(concat(
                        new String[] {JAVA, "dev.punctual.ledger.testkit..", "dev.punctual.longrun.testkit.."},
                        CORE,
                        TEST_LIBRARIES))
                .check(PUNCTUAL);
    }

    @Test
    void nothingOutsideTheTestKit_dependsOnIt() {
        // The test kit is a test-scope artifact: a shipped class that needed it would fail at run time.
        noClasses().that(not(TEST_KIT)).should().dependOnClassesThat(TEST_KIT).check(PUNCTUAL);
    }

    @Test
    void packages_areFreeOfCycles() {
        slices().matching("dev.punctual.(**)").should().beFreeOfCycles().check(PUNCTUAL);
    }

    private static boolean isFromTheTestKit(JavaClass javaClass) {
        return javaClass
                .getSource()
                .map(source -> source.getUri().toString())
                .filter(uri -> uri.contains("/testkit/target/") || uri.contains("/punctual-testkit-"))
                .isPresent();
    }

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }
}
