package io.siteflow.processor;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The stream processor's packages form a tree ({@code app} wires {@code http}, {@code query} and {@code topology};
 * {@code http} reads {@code query}; {@code query} reads {@code topology} and {@code topology.store}), main code
 * never depends on test fixtures (classes compiled from test sources, such as {@code StaticQueries}), and never on
 * the broker (kafka_2.13 and the kafka-broker module are test dependencies only). Each rule is also run once on a
 * fixture that breaks it.
 */
class ArchitectureTest {
    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.siteflow.processor");

    static final ArchRule NO_CYCLES = slices().matching("io.siteflow.processor.(**)").should().beFreeOfCycles();

    static final DescribedPredicate<JavaClass> COMPILED_FROM_TEST_SOURCES = DescribedPredicate.describe(
            "compiled from test sources", c -> c.getSource()
                    .map(s -> s.getUri().toString().contains("/test-classes/") || s.getUri().toString().contains("-tests.jar"))
                    .orElse(false));
    static final ArchRule NO_TEST_FIXTURES = noClasses().should().dependOnClassesThat(COMPILED_FROM_TEST_SOURCES)
            .because("test and demo fixtures live in test sources; product code never needs them");

    static final ArchRule NO_BROKER = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("io.siteflow.broker..", "kafka..", "org.apache.kafka.server..",
                    "org.apache.kafka.metadata..")
            .because("the broker is a deployable of its own (kafka-broker); the processor is a Kafka client");

    @Test
    void mainCodeDoesNotUseTheBroker() {
        NO_BROKER.check(MAIN);
    }

    @Test
    void theBrokerRuleCatchesCodeThatStartsABroker() {
        JavaClasses bad = new ClassFileImporter().importClasses(io.siteflow.processor.fixture.StartsABroker.class);

        assertThatThrownBy(() -> NO_BROKER.check(bad)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("io.siteflow.broker.EmbeddedKafkaBroker");
    }

    @Test
    void packagesFormNoCycle() {
        assertThat(MAIN.contain(io.siteflow.processor.topology.SiteflowTopology.class)).isTrue(); // the rule saw the code
        NO_CYCLES.check(MAIN);
    }

    @Test
    void mainCodeDoesNotDependOnTestFixtures() {
        NO_TEST_FIXTURES.check(MAIN);
    }

    @Test
    void theCycleRuleCatchesTwoPackagesThatNeedEachOther() {
        JavaClasses bad = new ClassFileImporter().importPackages("io.siteflow.processor.fixture.cycle");

        assertThatThrownBy(() -> NO_CYCLES.check(bad)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected");
    }

    @Test
    void theFixtureRuleCatchesCodeThatUsesAFixture() {
        JavaClasses bad = new ClassFileImporter().importClasses(io.siteflow.processor.fixture.UsesAFixture.class);

        assertThatThrownBy(() -> NO_TEST_FIXTURES.check(bad)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("io.siteflow.processor.http.StaticQueries");
    }
}
