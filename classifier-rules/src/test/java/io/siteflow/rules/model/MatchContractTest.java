package io.siteflow.rules.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.classify.FlowSyntax;
import io.siteflow.rules.load.SiteModelLoader;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every {@link Match} kind passes: loaded from YAML into the expected record, accepts and
 * rejects the same flows through {@link Match#matches} and through the compiled {@link Classifier}, covers
 * itself, covers no other kind, and explains both outcomes.
 */
class MatchContractTest {

    /** One kind: the YAML condition, its record, a flow it accepts, one it rejects, and both explanations. */
    record Case(String yaml, Match expected, String accepted, String rejected, String acceptedText,
                String rejectedText) {
        @Override
        public String toString() {
            return expected.getClass().getSimpleName();
        }
    }

    static Stream<Arguments> kinds() {
        return Stream.of(
                new Case("ports: [1521, \"2483-2484\"]",
                        new PortMatch(java.util.List.of(new PortRange(1521, 1521), new PortRange(2483, 2484))),
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:2484", "tcp 10.2.0.20:1521 -> 10.1.0.10:2485",
                        "dstPort 2484 is in ports 1521,2483-2484", "dstPort 2485 is not in ports 1521,2483-2484"),
                new Case("proto: udp", new ProtoMatch(java.util.List.of(17)),
                        "udp 10.2.0.20:7574 -> 10.1.0.10:7574", "tcp 10.2.0.20:7574 -> 10.1.0.10:7574",
                        "proto udp is in proto udp", "proto tcp is not in proto udp"),
                new Case("peerRoles: [db, admin]", new PeerRoleMatch(java.util.List.of(Role.DB, Role.ADMIN)),
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:9", "tcp 10.1.0.10:40000 -> 10.2.0.20:9",
                        "responder role db is in peerRoles db,admin",
                        "responder role app-server is not in peerRoles db,admin"),
                new Case("peerSites: [region1]", new PeerSiteMatch(java.util.List.of("region1")),
                        "tcp 10.2.0.20:40000 -> 10.1.0.99:9", "tcp 10.1.0.10:40000 -> 192.0.2.1:9",
                        "responder site region1 is in peerSites region1",
                        "responder site (unknown) is not in peerSites region1"),
                new Case("cidrs: [10.1.0.0/24, \"fd00:1::/48\"]",
                        new CidrMatch(java.util.List.of(io.siteflow.model.Cidr.parse("10.1.0.0/24"),
                                io.siteflow.model.Cidr.parse("fd00:1::/48"))),
                        "tcp [fd00:2::5]:40000 -> [fd00:1:0:7::1]:9", "tcp 10.2.0.20:40000 -> 10.1.1.10:9",
                        "responder fd00:1:0:7::1 is in cidrs 10.1.0.0/24,fd00:1::/48",
                        "responder 10.1.1.10 is not in cidrs 10.1.0.0/24,fd00:1::/48"),
                new Case("l7: [t3-jms]", new L7Match(java.util.List.of(io.siteflow.model.L7Protocol.T3_JMS)),
                        "tcp 10.2.0.20:40000 -> 10.1.0.10:7001 l7=t3-jms", "tcp 10.2.0.20:40000 -> 10.1.0.10:7001",
                        "l7 t3-jms is in l7 t3-jms", "l7 (none detected) is not in l7 t3-jms"))
                .map(Arguments::of);
    }

    private static SiteModel model(Case c) throws Exception {
        String yaml = """
                defaults: none
                sites:
                  region1: { cidrs: [10.1.0.0/16, "fd00:1::/48"] }
                  region2: { cidrs: [10.2.0.0/16, "fd00:2::/48"] }
                hosts:
                  - { address: 10.1.0.10, name: db1, role: db }
                  - { address: 10.2.0.20, name: wls3, role: app-server }
                rules:
                  - { name: under-test, category: DB, %s }
                """.formatted(c.yaml());
        return SiteModelLoader.parse("contract.yaml", yaml).orThrow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void loadsIntoItsRecord(Case c) throws Exception {
        assertThat(model(c).rules().get(0).matches()).containsExactly(c.expected());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void slowAndCompiledPathsAgree(Case c) throws Exception {
        Classifier classifier = new Classifier(model(c));
        FlowFacts yes = classifier.facts(FlowSyntax.parse(c.accepted()));
        FlowFacts no = classifier.facts(FlowSyntax.parse(c.rejected()));

        assertThat(c.expected().matches(yes)).isTrue();
        assertThat(c.expected().matches(no)).isFalse();
        assertThat(classifier.classify(yes.flow()).category()).isEqualTo(Category.DB);
        assertThat(classifier.classify(no.flow()).category()).isEqualTo(Category.UNKNOWN);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void coversItselfAndNoOtherKind(Case c) {
        assertThat(c.expected().covers(c.expected())).isTrue();
        kinds().map(a -> (Case) a.get()[0]).filter(o -> o.expected().getClass() != c.expected().getClass())
                .forEach(o -> assertThat(c.expected().covers(o.expected())).isFalse());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void explainsBothOutcomes(Case c) throws Exception {
        Classifier classifier = new Classifier(model(c));

        assertThat(c.expected().explain(classifier.facts(FlowSyntax.parse(c.accepted())))).isEqualTo(c.acceptedText());
        assertThat(c.expected().explain(classifier.facts(FlowSyntax.parse(c.rejected())))).isEqualTo(c.rejectedText());
    }
}
