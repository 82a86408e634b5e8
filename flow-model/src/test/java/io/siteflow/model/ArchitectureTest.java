package io.siteflow.model;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import io.siteflow.model.archfixture.OpensASocket;
import io.siteflow.model.archfixture.UsesATestLibrary;
import io.siteflow.model.archfixture.cycle.a.A;
import io.siteflow.model.archfixture.cycle.b.B;
import org.junit.jupiter.api.Test;

/**
 * flow-model is pure domain and wire code (STYLE.md): its main classes use the JDK, Jackson and each other, nothing
 * else (no Kafka, pcap4j, HTTP, no other siteflow module), open no socket and speak no TLS (the broker
 * reachability probes live in kafka-client), and its packages form a tree.
 */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.siteflow.model");

    /** Only the JDK, Jackson and flow-model itself. */
    static final ArchRule IMPORTS_ONLY_JDK_AND_JACKSON = classes().should().onlyDependOnClassesThat()
            .resideInAnyPackage("java..", "com.fasterxml.jackson..", "io.siteflow.model..")
            .because("flow-model is shared by the agent, the processor and the offline audit (STYLE.md)");

    /** No sockets, channels or TLS: the record contract is data, not a network client. */
    static final ArchRule NO_SOCKETS_OR_TLS = noClasses().should().dependOnClassesThat(
                    JavaClass.Predicates.assignableTo(java.net.Socket.class)
                            .or(JavaClass.Predicates.assignableTo(java.net.ServerSocket.class))
                            .or(JavaClass.Predicates.assignableTo(java.net.SocketAddress.class))
                            .or(JavaClass.Predicates.resideInAnyPackage("javax.net..", "java.nio.channels..")))
            .because("flow-model is the record contract; network probes belong to kafka-client");

    /** Every package is a slice, the root package included. */
    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass c) {
            return SliceIdentifier.of(c.getPackageName());
        }

        @Override
        public String getDescription() {
            return "packages";
        }
    };

    static final ArchRule NO_PACKAGE_CYCLES = slices().assignedFrom(PACKAGES).should().beFreeOfCycles();

    @Test
    void importsOnlyTheJdkJacksonAndItself() {
        assertThat(MAIN).as("main classes imported").isNotEmpty();
        IMPORTS_ONLY_JDK_AND_JACKSON.check(MAIN);
    }

    @Test
    void keepsNoSocketOrTlsCode() {
        NO_SOCKETS_OR_TLS.check(MAIN);
    }

    @Test
    void theSocketRuleFailsOnAClassThatOpensASocket() {
        EvaluationResult r = NO_SOCKETS_OR_TLS.evaluate(new ClassFileImporter().importClasses(OpensASocket.class));

        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().getDetails()).anySatisfy(d -> assertThat(d)
                .contains(OpensASocket.class.getName()).contains("java.net.Socket"));
    }

    @Test
    void hasNoPackageCycles() {
        NO_PACKAGE_CYCLES.check(MAIN);
    }

    @Test
    void theImportRuleFailsOnAClassThatUsesAnotherLibrary() {
        EvaluationResult r = IMPORTS_ONLY_JDK_AND_JACKSON.evaluate(new ClassFileImporter()
                .importClasses(UsesATestLibrary.class));

        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().getDetails()).anySatisfy(d -> assertThat(d)
                .contains(UsesATestLibrary.class.getName()).contains("org.assertj.core.api.Assertions"));
    }

    @Test
    void theCycleRuleFailsOnTwoPackagesThatUseEachOther() {
        EvaluationResult r = NO_PACKAGE_CYCLES.evaluate(new ClassFileImporter().importClasses(A.class, B.class));

        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().toString()).contains("Cycle detected")
                .contains("io.siteflow.model.archfixture.cycle.a").contains("io.siteflow.model.archfixture.cycle.b");
    }
}
