package io.siteflow.kafka;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.siteflow.kafka.archfixture.UsesATestLibrary;
import org.junit.jupiter.api.Test;

/**
 * kafka-client is what the agent, the processor and the broker share as Kafka clients, so that the agent stays
 * deployable without the broker: its main classes use the JDK, flow-model, the Kafka client library, picocli and
 * SLF4J, never the broker ({@code kafka.*}, {@code org.apache.kafka.server}, {@code org.apache.kafka.metadata}),
 * Kafka Streams or another siteflow module; its packages form a tree.
 */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.siteflow.kafka");

    static final ArchRule CLIENT_LIBRARIES_ONLY = classes().should().onlyDependOnClassesThat()
            .resideInAnyPackage("java..", "javax.net.ssl..", "io.siteflow.kafka..", "io.siteflow.model..",
                    "org.apache.kafka.clients..", "org.apache.kafka.common..", "picocli..", "org.slf4j..")
            .because("the agent depends on kafka-client and must not pull the broker (kafka_2.13) or Streams");

    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("io.siteflow.(**)").should().beFreeOfCycles();

    @Test
    void usesOnlyTheKafkaClientLibraryPicocliAndSlf4j() {
        assertThat(MAIN.contain(KafkaOptions.class)).isTrue(); // the rule saw the code
        CLIENT_LIBRARIES_ONLY.check(MAIN);
    }

    @Test
    void hasNoPackageCycles() {
        NO_PACKAGE_CYCLES.check(MAIN);
    }

    @Test
    void theBrokerIsNotOnTheClasspath() {
        assertThatThrownBy(() -> Class.forName("kafka.server.KafkaRaftServer"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void theImportRuleFailsOnAClassThatUsesAnotherLibrary() {
        EvaluationResult r = CLIENT_LIBRARIES_ONLY.evaluate(new ClassFileImporter()
                .importClasses(UsesATestLibrary.class));

        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().getDetails()).anySatisfy(d -> assertThat(d)
                .contains(UsesATestLibrary.class.getName()).contains("org.assertj.core.api.Assertions"));
    }
}
