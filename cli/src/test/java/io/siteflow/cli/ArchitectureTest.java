package io.siteflow.cli;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The cli's packages form no cycle: the command groups ({@code isolation}, ...) and the root command depend on
 * {@code cli.input} (captures and site models as the commands read them), never on each other. The rule is also run
 * on a fixture that breaks it, so a rule that cannot fail is noticed.
 */
class ArchitectureTest {
    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.siteflow.cli");
    /** One slice per package, the root package {@code io.siteflow.cli} included ({@code (**)} patterns leave it out). */
    static final ArchRule NO_CYCLES = slices().assignedFrom(new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            return c.getPackageName().startsWith("io.siteflow.cli") ? SliceIdentifier.of(c.getPackageName())
                    : SliceIdentifier.ignore();
        }

        @Override
        public String getDescription() {
            return "the packages of io.siteflow.cli";
        }
    }).should().beFreeOfCycles();

    @Test
    void packagesFormNoCycle() {
        assertThat(MAIN.contain(io.siteflow.cli.isolation.IsolationCheckCommand.class)).isTrue(); // the rule saw them
        assertThat(MAIN.contain(IsolationCommand.class)).isTrue();
        NO_CYCLES.check(MAIN);
    }

    @Test
    void theCycleRuleCatchesTwoPackagesThatNeedEachOther() {
        JavaClasses bad = new ClassFileImporter().importPackages("io.siteflow.cli.archfixture");

        assertThatThrownBy(() -> NO_CYCLES.check(bad)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected");
    }
}
