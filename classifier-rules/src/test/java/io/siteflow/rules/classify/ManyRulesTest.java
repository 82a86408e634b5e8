package io.siteflow.rules.classify;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.Rule;
import io.siteflow.rules.model.SiteModel;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The compiled path with more than one 64-bit word of rules agrees with evaluating the rules one by one. */
class ManyRulesTest {
    private static final String[] ROLES = {"db", "app-server", "admin", "frontend", "batch"};

    private static String yaml() {
        StringBuilder sb = new StringBuilder("defaults: none\nsites:\n");
        for (int s = 0; s < 8; s++) {
            sb.append("  s").append(s).append(": { cidrs: [10.").append(s).append(".0.0/16, \"fd00:").append(s + 1)
                    .append("::/48\"] }\n");
        }
        sb.append("  s0-dmz: { cidrs: [10.0.9.0/24] }\nhosts:\n");
        for (int s = 0; s < 8; s++) {
            for (int h = 1; h <= 10; h++) {
                sb.append("  - { address: 10.").append(s).append(".0.").append(h).append(", role: ")
                        .append(ROLES[h % ROLES.length]).append(" }\n");
            }
        }
        sb.append("rules:\n");
        Random rnd = new Random(3);
        for (int i = 0; i < 170; i++) {
            sb.append("  - { name: r").append(i).append(", category: OTHER");
            if (rnd.nextInt(2) == 0) {
                sb.append(", proto: ").append(rnd.nextBoolean() ? "tcp" : "udp");
            }
            {
                int p = 1 + rnd.nextInt(60);
                sb.append(", ports: [").append(p).append(", \"").append(p + 5).append('-').append(p + 5 + rnd.nextInt(10))
                        .append("\"]");
            }
            if (rnd.nextInt(3) == 0) {
                sb.append(", peerRoles: [").append(ROLES[rnd.nextInt(ROLES.length)]).append(']');
            }
            if (rnd.nextInt(3) == 0) {
                sb.append(", peerSites: [s").append(rnd.nextInt(8)).append(']');
            }
            if (rnd.nextInt(4) == 0) {
                sb.append(", cidrs: [10.").append(rnd.nextInt(8)).append('.').append(rnd.nextInt(2)).append(".0/")
                        .append(rnd.nextBoolean() ? "24" : "20").append(']');
            }
            if (rnd.nextInt(3) == 0) {
                sb.append(", l7: [").append(L7Protocol.values()[rnd.nextInt(10)].wireName()).append(']');
            }
            sb.append(" }\n");
        }
        return sb.toString();
    }

    @Test
    void compiledAndRuleByRuleClassificationAgreeOnRandomFlows() throws Exception {
        SiteModel model = SiteModelLoader.parse("many.yaml", yaml()).orThrow();
        Classifier c = new Classifier(model);
        Random rnd = new Random(11);
        assertThat(model.rules()).hasSizeGreaterThan(128);
        java.util.Set<Integer> hit = new java.util.TreeSet<>();
        for (int i = 0; i < 50_000; i++) {
            long[] s = IpAddresses.parse("10." + rnd.nextInt(9) + "." + rnd.nextInt(10) + "." + rnd.nextInt(12));
            long[] d = rnd.nextInt(10) == 0 ? IpAddresses.parse("fd00:" + (1 + rnd.nextInt(9)) + "::" + rnd.nextInt(5))
                    : IpAddresses.parse("10." + rnd.nextInt(9) + "." + rnd.nextInt(10) + "." + rnd.nextInt(12));
            Flow f = new Flow(new int[] {1, 6, 17}[rnd.nextInt(3)], s[0], s[1], 1000, d[0], d[1], rnd.nextInt(90),
                    L7Protocol.values()[rnd.nextInt(L7Protocol.values().length)]);
            Rule expected = model.rules().stream().filter(r -> r.matches(c.facts(f))).findFirst().orElse(Rule.NONE);

            Rule actual = c.classify(f).rule();

            assertThat(actual).as(f.toString()).isSameAs(expected);
            hit.add(model.rules().indexOf(actual));
        }
        assertThat(hit).contains(-1).anyMatch(i -> i >= 64).anyMatch(i -> i >= 128).hasSizeGreaterThan(60);
    }
}
