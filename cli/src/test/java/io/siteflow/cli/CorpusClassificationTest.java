package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.app.FileReplay;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Category;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Public Oracle captures from the shared corpus through the agent and the default Oracle FMW rules: the
 * connect in {@code arkime/oracle.pcap} is DB by port 1522 (and by its TNS signature), the TNS session in
 * nDPI's {@code oracle12.pcapng} is DB by signature on port 1521.
 */
class CorpusClassificationTest {
    private static final String SITES = """
            defaults: fmw
            sites:
              clients: { cidrs: [10.0.0.16/32, 10.0.2.0/24] }
              servers: { cidrs: [10.0.0.17/32, 10.0.72.0/24] }
            """;
    private static Path corpus;
    private static Classifier classifier;

    @BeforeAll
    static void load() throws Exception {
        corpus = Path.of(System.getProperty("siteflow.corpus", "../../shared/corpus")).toAbsolutePath().normalize();
        classifier = new Classifier(SiteModelLoader.parse("sites.yaml", SITES).orThrow());
    }

    private static List<FlowRecord> records(String path) {
        Path file = corpus.resolve(path);
        Assumptions.assumeTrue(Files.isRegularFile(file), "corpus not found at " + file);
        List<FlowRecord> out = new ArrayList<>();
        FileReplay.Result r = FileReplay.run(file, "corpus", FlowTableConfig.DEFAULTS, new FlowSink() {
            @Override
            public void accept(FlowRecord rec) {
                out.add(rec);
            }

            @Override
            public void close() {
            }
        });
        assertThat(r.problems()).isEmpty();
        return out;
    }

    @Test
    void arkimeOracleConnectIsDbByPort1522WithTheDefaultRules() {
        List<FlowRecord> recs = records("proto/arkime/oracle.pcap");
        assertThat(recs).hasSize(1);
        FlowRecord r = recs.get(0);
        assertThat(r.dstPort()).isEqualTo(1522);
        assertThat(r.l7()).isEqualTo(L7Protocol.ORACLE_TNS);

        FlowRecord withoutSignature = r.toBuilder().l7(L7Protocol.UNKNOWN).sni(null).build();
        Classification byPort = classifier.classify(withoutSignature);
        assertThat(byPort.category()).isEqualTo(Category.DB);
        assertThat(byPort.rule().name()).isEqualTo("fmw-oracle-net-ports");

        Classification bySignature = classifier.classify(r);
        assertThat(bySignature.category()).isEqualTo(Category.DB);
        assertThat(bySignature.rule().name()).isEqualTo("fmw-oracle-tns");
    }

    @Test
    void ndpiOracle12SessionIsDbByItsTnsSignature() {
        List<FlowRecord> tns = records("proto/ndpi-LGPL-3.0/oracle12.pcapng").stream()
                .filter(r -> r.l7() == L7Protocol.ORACLE_TNS).toList();
        assertThat(tns).hasSize(1);
        assertThat(tns.get(0).dstPort()).isEqualTo(1521);
        Classification c = classifier.classify(tns.get(0));
        assertThat(c.category()).isEqualTo(Category.DB);
        assertThat(c.rule().name()).isEqualTo("fmw-oracle-tns");
        assertThat(c.crossSite()).isTrue();
    }
}
