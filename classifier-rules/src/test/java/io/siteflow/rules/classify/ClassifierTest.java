package io.siteflow.rules.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.Rule;
import io.siteflow.rules.model.SiteModel;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClassifierTest {

    static final String YAML = """
            sites:
              region1: { cidrs: [10.1.0.0/16, "fd00:1::/48"] }
              region2: { cidrs: [10.2.0.0/16, "fd00:2::/48"] }
              region1-dmz: { cidrs: [10.1.200.0/24] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.11, name: wls1, role: app-server }
              - { address: 10.1.0.12, name: admin1, role: admin }
              - { address: 10.1.200.5, name: ohs1, role: frontend }
              - { address: 10.2.0.20, name: wls3, role: app-server }
              - { address: "fd00:1::10", name: db1v6, role: db }
            rules:
              - { name: jms-channel, category: JMS, ports: [8011], peerRoles: [app-server] }
              - { name: backup, category: OTHER, proto: tcp, cidrs: [10.1.99.0/24] }
            """;

    static final SiteModel MODEL = load();
    static final Classifier CLASSIFIER = new Classifier(MODEL);

    private static SiteModel load() {
        try {
            return SiteModelLoader.parse("sites.yaml", YAML).orThrow();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Classification classify(String flow) {
        return CLASSIFIER.classify(FlowSyntax.parse(flow));
    }

    @ParameterizedTest(name = "{0} -> {1} by {2}")
    @CsvSource(delimiter = '|', value = {
            "tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns | DB | fmw-oracle-tns",
            "tcp 10.2.0.20:40112 -> 10.1.0.10:15210 l7=oracle-tns | DB | fmw-oracle-tns",
            "tcp 10.2.0.20:40112 -> 10.1.0.10:2484 | DB | fmw-oracle-net-ports",
            "tcp 10.2.0.20:40112 -> 10.1.0.10:6200 | DB | fmw-ons-fan",
            "tcp 10.2.0.20:40112 -> 10.1.0.11:6200 | UNKNOWN | (none)",
            "tcp 10.2.0.20:40112 -> 10.1.0.11:7001 l7=t3-jms | JMS | fmw-t3-jms",
            "tcp 10.2.0.20:40112 -> 10.1.0.11:7001 l7=t3 | CLUSTER | fmw-t3-giop",
            "tcp 10.2.0.20:40112 -> 10.1.0.11:8001 | CLUSTER | fmw-wls-ports",
            "tcp 10.2.0.20:40112 -> 10.1.0.11:8011 l7=t3-jms | JMS | jms-channel",
            "tcp 10.2.0.20:40112 -> 10.1.0.12:7001 | ADMIN | fmw-admin-server",
            "tcp 10.2.0.20:40112 -> 10.1.0.12:5556 | ADMIN | fmw-node-manager",
            "udp 10.2.0.20:7574 -> 10.1.0.11:7574 | COHERENCE | fmw-coherence-port",
            "tcp 10.2.0.20:40112 -> 10.1.0.11:9000 l7=coherence-tmb | COHERENCE | fmw-coherence",
            "tcp 10.2.0.20:40112 -> 10.1.200.5:443 l7=tls | FRONTEND | fmw-frontend-http",
            "tcp 10.2.0.20:40112 -> 10.1.200.5:7777 | FRONTEND | fmw-frontend-ports",
            "udp 10.2.0.20:40112 -> 10.1.0.2:53 | OTHER | fmw-dns",
            "tcp 10.2.0.20:40112 -> 10.1.99.7:1521 | OTHER | backup",
            "tcp [fd00:2::20]:40112 -> [fd00:1::10]:6200 | DB | fmw-ons-fan",
            "icmp 10.2.0.20 -> 10.1.0.10 | UNKNOWN | (none)",
    })
    void classifiesWithUserRulesFirstThenTheFmwDefaults(String flow, Category category, String rule) {
        Classification c = classify(flow);

        assertThat(c.category()).isEqualTo(category);
        assertThat(c.rule().name()).isEqualTo(rule);
    }

    @Test
    void resolvesSitesOfBothEndsByLongestPrefix() {
        Classification c = classify("tcp 10.2.0.20:40112 -> 10.1.200.5:443");
        Classification v6 = classify("tcp [fd00:2::1]:40112 -> [fd00:1::10]:1521");
        Classification outside = classify("tcp 192.0.2.1:40112 -> 10.1.0.10:1521");

        assertThat(c.srcSite().name()).isEqualTo("region2");
        assertThat(c.dstSite().name()).isEqualTo("region1-dmz");
        assertThat(c.crossSite()).isTrue();
        assertThat(v6.srcSite().name() + "/" + v6.dstSite().name()).isEqualTo("region2/region1");
        assertThat(outside.srcSite().isKnown()).isFalse();
        assertThat(outside.crossSite()).isFalse();
    }

    @Test
    void aFlowMatchingNoRuleIsUnknownWithNoRule() {
        Classification c = classify("tcp 10.2.0.20:40112 -> 10.1.0.11:12345");

        assertThat(c.category()).isEqualTo(Category.UNKNOWN);
        assertThat(c.rule()).isSameAs(Rule.NONE);
        assertThat(c.matched()).isFalse();
    }

    @Test
    void compiledPathAgreesWithTheRulesOwnMatchingOnRandomFlows() {
        Random rnd = new Random(42);
        int[] ports = {53, 80, 123, 443, 1521, 1522, 2484, 5556, 6200, 7001, 7574, 7777, 8001, 8011, 9002, 40000};
        String[] addrs = {"10.1.0.10", "10.1.0.11", "10.1.0.12", "10.1.200.5", "10.2.0.20", "10.1.99.7", "192.0.2.1",
                "fd00:1::10", "fd00:2::20"};
        L7Protocol[] l7s = L7Protocol.values();
        for (int i = 0; i < 20_000; i++) {
            long[] s = IpAddresses.parse(addrs[rnd.nextInt(addrs.length)]);
            long[] d = IpAddresses.parse(addrs[rnd.nextInt(addrs.length)]);
            int proto = new int[] {1, 6, 17}[rnd.nextInt(3)];
            Flow f = new Flow(proto, s[0], s[1], 40000, d[0], d[1], ports[rnd.nextInt(ports.length)],
                    l7s[rnd.nextInt(l7s.length)]);
            Rule expected = MODEL.rules().stream().filter(r -> r.matches(CLASSIFIER.facts(f))).findFirst()
                    .orElse(Rule.NONE);

            assertThat(CLASSIFIER.classify(f).rule()).as(f.toString()).isSameAs(expected);
        }
    }

    @Test
    void explainsWhichRuleMatchedAndWhyEarlierOnesDidNot() {
        String text = CLASSIFIER.explain(FlowSyntax.parse("tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns"));

        assertThat(text).isEqualTo("""
                flow: tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns
                  initiator 10.2.0.20: host wls3 (app-server), site region2
                  responder 10.1.0.10: host db1 (db), site region1
                rule 1 jms-channel -> JMS (sites.yaml:13:5): no match
                    no:  dstPort 1521 is not in ports 8011
                    no:  responder role db is not in peerRoles app-server
                rule 2 backup -> OTHER (sites.yaml:14:5): no match
                    yes: proto tcp is in proto tcp
                    no:  responder 10.1.0.10 is not in cidrs 10.1.99.0/24
                rule 3 fmw-oracle-tns -> DB (fmw-defaults.yaml:6:5): MATCH
                    yes: l7 oracle-tns is in l7 oracle-tns
                result: DB by rule fmw-oracle-tns
                """);
    }

    @Test
    void explainsAFlowThatNoRuleMatches() throws Exception {
        Classifier none = new Classifier(SiteModelLoader.parse("s.yaml", YAML.replace("sites:", "defaults: none\nsites:")).orThrow());

        String text = none.explain(FlowSyntax.parse("udp 192.0.2.1:5000 -> [fd00:1::10]:9"));

        assertThat(text).isEqualTo("""
                flow: udp 192.0.2.1:5000 -> [fd00:1::10]:9
                  initiator 192.0.2.1: no listed host, outside every site
                  responder fd00:1::10: host db1v6 (db), site region1
                rule 1 jms-channel -> JMS (s.yaml:14:5): no match
                    no:  dstPort 9 is not in ports 8011
                    no:  responder role db is not in peerRoles app-server
                rule 2 backup -> OTHER (s.yaml:15:5): no match
                    no:  proto udp is not in proto tcp
                    no:  responder fd00:1::10 is not in cidrs 10.1.99.0/24
                result: UNKNOWN (no rule matched)
                """);
    }
}
