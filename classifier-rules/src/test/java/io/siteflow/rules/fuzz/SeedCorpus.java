package io.siteflow.rules.fuzz;

import io.siteflow.rules.classify.FlowSyntax;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * Writes the seed inputs of this module's fuzz harnesses from the project's own site models (the shipped
 * {@code deploy/conf/sites.yaml}, the same with an isolation block, and the default FMW rules) and flows printed by
 * {@link io.siteflow.rules.model.Flow#toString()}. Run by {@code bench/fuzz.sh --seeds}; the output is committed
 * under {@code src/test/resources/io/siteflow/rules/fuzz/}. Argument: the repository root.
 */
public final class SeedCorpus {
    /** The isolation block of docs/RULES.md's example, over the shipped model's hosts. */
    static final String ISOLATION = """
            isolation:
              scope: cross-site
              default: deny
              groups:
                soa: { hosts: [wls1, wls2, wls3, 10.2.0.21] }
                db: { roles: [db] }
                r1: { sites: [region1] }
                ops: { cidrs: [10.9.0.0/24] }
                admin: { roles: [admin] }
              deny:
                - { name: no-t3-to-db, from: any, to: db, l7: [t3, t3-jms] }
                - { name: no-unlisted-db, from: unlisted, to: db }
              allow:
                - { name: app-db, from: soa, to: db, categories: [DB], ports: [1521], l7: [oracle-tns] }
                - { name: soa-cluster, from: soa, to: soa, categories: [CLUSTER, JMS, COHERENCE] }
                - { name: admin-soa, from: admin, to: soa, ports: ["7001-7002"], proto: [tcp] }
            """;

    private SeedCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        Path out = root.resolve("classifier-rules/src/test/resources/io/siteflow/rules/fuzz");
        Path models = out.resolve("SiteModelFuzzTestInputs/loadsOrReportsEveryProblemWithItsPosition");
        Files.createDirectories(models);
        Files.copy(root.resolve("deploy/conf/sites.yaml"), models.resolve("deploy-sites.yaml"),
                StandardCopyOption.REPLACE_EXISTING);
        try (InputStream fmw = SeedCorpus.class.getResourceAsStream("/io/siteflow/rules/fmw-defaults.yaml")) {
            Files.write(models.resolve("fmw-defaults.yaml"), fmw.readAllBytes());
        }
        Files.writeString(models.resolve("deploy-sites-isolation.yaml"),
                Files.readString(root.resolve("deploy/conf/sites.yaml")) + ISOLATION);
        Path flows = out.resolve("FlowSyntaxFuzzTestInputs/parsesOrRefusesAndPrintsBackTheSameFlow");
        Files.createDirectories(flows);
        List<String> examples = List.of("tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns",
                "udp [fd00:2::20]:53011 -> [fd00:1::2]:53", "icmp 10.2.0.20 -> 10.1.0.10",
                "47 10.2.0.20 -> 10.1.0.10", "tcp 10.2.0.21:51000 -> 10.1.0.11:7001 l7=t3-jms");
        for (int i = 0; i < examples.size(); i++) {
            Files.write(flows.resolve("flow-" + i),
                    FlowSyntax.parse(examples.get(i)).toString().getBytes(StandardCharsets.UTF_8));
        }
    }
}
