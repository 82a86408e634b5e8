package io.siteflow.rules;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * classifier-rules is pure domain code (STYLE.md): it depends on the JDK (with StAX, javax.xml.stream, for the domain importer), Jackson and the flow model only (no
 * Kafka, pcap4j, Javalin/Jetty or any HTTP client or server), and its packages form no cycle. Each rule is also
 * run once on a fixture that breaks it, so a rule that cannot fail is noticed.
 */
class ArchitectureTest {
    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.siteflow.rules");

    static final ArchRule DOMAIN_ONLY = classes().that().resideInAPackage("io.siteflow.rules..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax.xml.stream..", "com.fasterxml.jackson..",
                    "io.siteflow.model..", "io.siteflow.rules..")
            .because("classifier-rules is domain code: JDK, Jackson and the flow model");
    static final ArchRule NO_HTTP = noClasses().that().resideInAPackage("io.siteflow.rules..")
            .should().dependOnClassesThat().resideInAnyPackage("java.net.http..", "com.sun.net.httpserver..")
            .because("classifier-rules is domain code: no HTTP");
    static final ArchRule NO_CYCLES = slices().matching("io.siteflow.rules.(**)").should().beFreeOfCycles();

    @Test
    void dependsOnTheJdkJacksonAndTheFlowModelOnly() {
        DOMAIN_ONLY.check(MAIN);
        NO_HTTP.check(MAIN);
    }

    @Test
    void packagesFormNoCycle() {
        assertThat(MAIN.contain(io.siteflow.rules.audit.OfflineAudit.class)).isTrue(); // the rule saw the code
        NO_CYCLES.check(MAIN);
    }

    @Test
    void theImportRulesCatchATestLibraryAndAnHttpClient() {
        JavaClasses bad = new ClassFileImporter().importClasses(ArchitectureTest.class,
                io.siteflow.rules.fixture.http.Fetches.class);

        assertThatThrownBy(() -> DOMAIN_ONLY.check(bad)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("com.tngtech.archunit");
        assertThatThrownBy(() -> NO_HTTP.check(bad)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("java.net.http.HttpClient");
    }

    @Test
    void theCycleRuleCatchesTwoPackagesThatNeedEachOther() {
        JavaClasses bad = new ClassFileImporter().importPackages("io.siteflow.rules.fixture.cycle");

        assertThatThrownBy(() -> NO_CYCLES.check(bad)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("Cycle detected");
    }
}
