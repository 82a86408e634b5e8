package io.siteflow.synth;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The generator stands alone: its main classes use the JDK and Jackson's streaming generator, nothing else. */
class ArchitectureTest {
    private static final JavaClasses SYNTH = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.siteflow.synth");

    @Test
    void usesOnlyTheJdkAndJacksonCore() {
        classes().should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.siteflow.synth..", "java..", "com.fasterxml.jackson.core..")
                .check(SYNTH);
    }
}
