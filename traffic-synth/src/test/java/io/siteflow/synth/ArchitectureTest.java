package io.siteflow.synth;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The generator stands alone: its main classes use the JDK, Jackson's streaming generator and the flow record
 * (flow-model, itself JDK and Jackson only; {@code SyntheticCluster} builds records), nothing else.
 */
class ArchitectureTest {
    private static final JavaClasses SYNTH = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.siteflow.synth");

    @Test
    void usesOnlyTheJdkJacksonCoreAndTheFlowRecord() {
        classes().should().onlyDependOnClassesThat()
                .resideInAnyPackage("io.siteflow.synth..", "io.siteflow.model..", "java..", "com.fasterxml.jackson.core..")
                .check(SYNTH);
    }
}
