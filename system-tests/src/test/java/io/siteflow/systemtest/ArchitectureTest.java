package io.siteflow.systemtest;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The system tests (test sources only) form a tree of packages, one per area ({@code pipeline}, {@code cluster},
 * {@code dashboard}, {@code demo}, {@code lab}, {@code broker}), shared helpers below the tests that use them; and
 * every integration test here is a Failsafe one ({@code *IT}) or a Surefire one ({@code *Test}), so that
 * {@code mvn verify} runs it.
 */
class ArchitectureTest {
    private static final JavaClasses TESTS = new ClassFileImporter().importPackages("io.siteflow.systemtest");

    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("io.siteflow.systemtest.(**)").should()
            .beFreeOfCycles();

    static final ArchRule TESTS_ARE_NAMED_FOR_A_RUNNER = classes().that().containAnyMethodsThat(
                    com.tngtech.archunit.base.DescribedPredicate.describe("are annotated @Test",
                            m -> m.isAnnotatedWith(Test.class))).and().areTopLevelClasses()
            .should().haveSimpleNameEndingWith("IT").orShould().haveSimpleNameEndingWith("Test")
            .because("Failsafe runs *IT and Surefire *Test; a class named otherwise would never run");

    @Test
    void packagesFormNoCycle() {
        assertThat(TESTS.contain("io.siteflow.systemtest.pipeline.TwoProcessorsIT")).isTrue(); // the rule saw the tests
        NO_PACKAGE_CYCLES.check(TESTS.that(com.tngtech.archunit.base.DescribedPredicate.describe("outside archfixture",
                c -> !c.getPackageName().contains(".archfixture"))));
    }

    @Test
    void everyTestClassRunsInMvnVerify() {
        TESTS_ARE_NAMED_FOR_A_RUNNER.check(TESTS);
    }

    @Test
    void theCycleRuleCatchesTwoPackagesThatNeedEachOther() {
        JavaClasses bad = new ClassFileImporter().importPackages("io.siteflow.systemtest.archfixture.cycle");

        assertThatThrownBy(() -> NO_PACKAGE_CYCLES.check(bad)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected");
    }
}
