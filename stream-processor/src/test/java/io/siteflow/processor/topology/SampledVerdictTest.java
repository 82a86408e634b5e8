package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.verdict.SampledEstimate;
import io.siteflow.rules.verdict.VerdictJson;
import java.math.BigDecimal;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Verdicts from sampled records (a flow exporter counting 1 in N packets) are marked as estimates, with the bound. */
class SampledVerdictTest {
    private static final String PAIR = "10.2.0.20|region1";
    @TempDir
    Path dir;
    Driver d;

    @BeforeEach
    void start() {
        d = new Driver(dir).withSites(Flows.SITES_YAML);
    }

    @AfterEach
    void stop() {
        d.close();
    }

    @Test
    void aWindowOfSampledRecordsGivesAnEstimateWithTheBoundTheOfflineAuditGives() throws Exception {
        // the records of classifier-rules' SampledEstimateTest: DB 9e6 bytes in 1e4 packets, T3 1e6 in 2000, 1 in 10
        d.send(flow().at(T0).bytes(9_000_000, 0).exported("192.0.2.1", 10, 10_000));
        d.send(flow().at(T0 + 1).to("10.1.0.10", 7001).bytes(1_000_000, 0).exported("192.0.2.1", 10, 2_000));
        d.send(flow().at(T0 + 70_000).bytes(1000, 0));

        String json = d.verdicts().get(0).value;
        var window = VerdictJson.parse(json);
        assertThat(window.dbShare()).isEqualTo(new BigDecimal("0.9000"));
        assertThat(window.estimate()).contains(new SampledEstimate(10, new BigDecimal("0.0331")));
        assertThat(json).endsWith(",\"estimate\":{\"sampling\":10,\"bound\":0.0331}}");
        // the cumulative aggregate holds the sampled records and the counted one (1000 more bytes, DB)
        assertThat(d.cumulative(PAIR).estimate()).isPresent();
    }

    @Test
    void aWindowOfCountedRecordsIsNoEstimate() throws Exception {
        d.send(flow().at(T0).bytes(9_000_000, 0));
        d.send(flow().at(T0 + 70_000).bytes(1000, 0));

        String json = d.verdicts().get(0).value;
        assertThat(VerdictJson.parse(json).estimate()).isEmpty();
        assertThat(json).doesNotContain("estimate");
    }
}
