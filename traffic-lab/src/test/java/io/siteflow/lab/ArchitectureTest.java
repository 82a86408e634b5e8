package io.siteflow.lab;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The lab's packages form a tree. Today the lab is one package, so the rule guards the sub-packages added later
 * (a cycle between the lab and the agent or the generator cannot compile: Maven's module graph forbids it).
 */
class ArchitectureTest {
    private static final JavaClasses LAB = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.siteflow.lab");

    @Test
    void packagesAreFreeOfCycles() {
        // "io.siteflow.(**)" so that the lab's root package is a slice too ("lab", "lab.x", ...)
        slices().matching("io.siteflow.(**)").should().beFreeOfCycles().check(LAB);
    }
}
