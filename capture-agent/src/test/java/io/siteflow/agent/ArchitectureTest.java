package io.siteflow.agent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The agent's package rules, on its main classes: packages form a tree (no cycles, each sub-package
 * such as {@code capture.file} or {@code publish.kafka} counted as a slice of its own), and the agent imports
 * none of the tooling (traffic lab, capture generator) nor the stream processor nor the broker; the broker
 * (kafka_2.13) is not even on its class path, so the agent deploys on its own.
 */
class ArchitectureTest {
    private static final JavaClasses AGENT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.siteflow.agent");

    @Test
    void packagesAreFreeOfCycles() {
        // "io.siteflow.(**)": every package is a slice, the agent's root package too ("agent", "agent.capture.file", ...)
        slices().matching("io.siteflow.(**)").should().beFreeOfCycles().check(AGENT);
    }

    @Test
    void importsNoToolingNoProcessorAndNoBroker() {
        noClasses().should().dependOnClassesThat()
                .resideInAnyPackage("io.siteflow.lab..", "io.siteflow.synth..", "io.siteflow.processor..",
                        "io.siteflow.broker..", "kafka..", "org.apache.kafka.server..", "org.apache.kafka.streams..")
                .check(AGENT);
    }

    @Test
    void theBrokerIsNotOnTheAgentsClassPath() {
        assertThatThrownBy(() -> Class.forName("kafka.server.KafkaRaftServer"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("io.siteflow.broker.EmbeddedKafkaBroker"))
                .isInstanceOf(ClassNotFoundException.class);
    }
}
