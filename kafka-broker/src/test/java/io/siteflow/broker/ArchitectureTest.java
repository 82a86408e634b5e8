package io.siteflow.broker;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.siteflow.broker.archfixture.UsesTheProcessor;
import org.junit.jupiter.api.Test;

/**
 * The broker module is the KRaft broker, {@code topics check} and the ACL set, over kafka-client: it uses neither
 * the processor (its code or Kafka Streams) nor the agent, the site model or the test tooling, so that a broker
 * node runs without them; its packages form a tree.
 */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.siteflow.broker");

    static final ArchRule NO_PROCESSOR_AGENT_OR_TOOLING = noClasses().should().dependOnClassesThat()
            .resideInAnyPackage("io.siteflow.processor..", "io.siteflow.agent..", "io.siteflow.rules..",
                    "io.siteflow.lab..", "io.siteflow.synth..", "io.siteflow.cli..", "org.apache.kafka.streams..")
            .because("a broker node needs only the broker and the Kafka client code (kafka-client)");

    static final ArchRule NO_PACKAGE_CYCLES = slices().matching("io.siteflow.(**)").should().beFreeOfCycles();

    @Test
    void usesNoProcessorAgentOrTooling() {
        assertThat(MAIN.contain(EmbeddedKafkaBroker.class)).isTrue(); // the rule saw the code
        NO_PROCESSOR_AGENT_OR_TOOLING.check(MAIN);
    }

    @Test
    void hasNoPackageCycles() {
        NO_PACKAGE_CYCLES.check(MAIN);
    }

    @Test
    void theImportRuleFailsOnAClassThatUsesKafkaStreams() {
        EvaluationResult r = NO_PROCESSOR_AGENT_OR_TOOLING.evaluate(new ClassFileImporter()
                .importClasses(UsesTheProcessor.class));

        assertThat(r.hasViolation()).isTrue();
        assertThat(r.getFailureReport().getDetails()).anySatisfy(d -> assertThat(d)
                .contains(UsesTheProcessor.class.getName()).contains("org.apache.kafka.streams.StreamsConfig"));
    }
}
