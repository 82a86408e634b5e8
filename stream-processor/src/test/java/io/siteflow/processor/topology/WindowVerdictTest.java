package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.Outcome;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictJson;
import io.siteflow.rules.verdict.Window;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WindowVerdictTest {
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
    void emitsNothingUntilStreamTimePassesWindowEndPlusGrace() {
        d.send(flow().at(T0 + 1_000).bytes(900, 50));
        d.send(flow().at(T0 + 69_999).to("10.1.0.10", 7001).bytes(10, 0));

        assertThat(d.verdicts()).isEmpty();
    }

    @Test
    void classifiesAndEmitsTheWindowVerdictWhenTheWindowCloses() throws Exception {
        d.send(flow().at(T0 + 1_000).bytes(900, 50));
        d.send(flow().at(T0 + 2_000).to("10.1.0.10", 7001).bytes(40, 10));
        d.send(flow().at(T0 + 70_000).to("10.1.0.10", 7001).bytes(1, 0));

        List<KeyValue<String, String>> out = d.verdicts();
        assertThat(out).extracting(kv -> kv.key).containsExactly("10.2.0.20|region1");
        Verdict v = VerdictJson.parse(out.get(0).value);
        assertThat(v.window()).contains(new Window(T0, T0 + 60_000));
        assertThat(v.verdict()).isEqualTo(Outcome.PASS);
        assertThat(v.crossBytes()).isEqualTo(1000);
        assertThat(v.dbShare()).isEqualByComparingTo(new BigDecimal("0.95"));
        assertThat(v.categories()).isEqualTo(Map.of(Category.DB, 950L, Category.CLUSTER, 50L));
        assertThat(v.addresses()).isEqualTo(Map.of("10.1.0.10", 1000L));
        assertThat(v.server()).isEqualTo("10.2.0.20");
        assertThat(v.name()).isEqualTo("wls3");
        assertThat(d.metrics.verdicts()).isEqualTo(1);
        var registry = d.metrics.registry();
        assertThat(registry.get("siteflow.processor.verdicts").tags("verdict", "PASS", "server", "10.2.0.20",
                "remote_site", "region1").counter().count()).isEqualTo(1.0);
        assertThat(registry.get("siteflow.processor.db.share").tags("server", "10.2.0.20", "remote_site", "region1")
                .gauge().value()).isEqualTo(0.95);
        assertThat(registry.get("siteflow.processor.bytes").tag("category", "DB").counter().count()).isEqualTo(950.0);
    }

    @Test
    void exportsTheRttLimitInForceBesideTheRttP95OfEachPair() {
        d.send(flow().at(T0 + 1_000).bytes(900, 50).rtt(7_000));
        d.send(flow().at(T0 + 70_000).to("10.1.0.10", 7001).bytes(1, 0));
        var registry = d.metrics.registry();
        assertThat(registry.get("siteflow.processor.rtt.p95.seconds").tags("server", "10.2.0.20", "remote_site",
                "region1").gauge().value()).isEqualTo(0.007);
        assertThat(registry.get("siteflow.processor.rtt.limit.seconds").tags("server", "10.2.0.20", "remote_site",
                "region1").gauge().value()).isEqualTo(0.010);

        d.withSites(Flows.SITES_YAML + "rttLimitMs: 5\n");
        d.send(flow().at(T0 + 71_000).bytes(900, 50).rtt(7_000));
        d.send(flow().at(T0 + 140_000).to("10.1.0.10", 7001).bytes(1, 0));

        assertThat(d.verdicts()).hasSize(2);
        assertThat(registry.get("siteflow.processor.rtt.limit.seconds").tags("server", "10.2.0.20", "remote_site",
                "region1").gauge().value()).isEqualTo(0.005);
    }

    @Test
    void countsDbConnectionsPerWindowAndForgetsThemWhenTheWindowCloses() throws Exception {
        d.send(flow().from("10.2.0.20", 40001).at(T0).bytes(500, 0));
        d.send(flow().from("10.2.0.20", 40002).at(T0 + 1_000).bytes(500, 0));
        d.send(flow().from("10.2.0.20", 40001).at(T0 + 2_000).bytes(500, 0));
        d.send(flow().at(T0 + 70_000).to("10.1.0.10", 7001).bytes(1, 0));

        Verdict v = VerdictJson.parse(d.verdicts().get(0).value);
        assertThat(v.dbConnections().max()).isEqualTo(2);
        org.apache.kafka.streams.state.KeyValueStore<String, long[]> conns =
                d.driver.getKeyValueStore(TopologySpec.CONNECTION_STORE);
        List<String> keys = new java.util.ArrayList<>();
        try (var it = conns.all()) {
            it.forEachRemaining(kv -> keys.add(kv.key));
        }
        // the pair's cumulative connections, and the site comparison's (db1, wls3); the window's are gone
        assertThat(keys).containsExactly("C|10.2.0.20|region1|6 10.2.0.20 40001 10.1.0.10 1521",
                "C|10.2.0.20|region1|6 10.2.0.20 40002 10.1.0.10 1521",
                "C|db|10.1.0.10|10.2.0.20|6 10.2.0.20 40001 10.1.0.10 1521",
                "C|db|10.1.0.10|10.2.0.20|6 10.2.0.20 40002 10.1.0.10 1521");
    }

    @Test
    void passesAtExactlyTheThreshold() throws Exception {
        d.send(flow().at(T0).bytes(900, 0));
        d.send(flow().at(T0).to("10.1.0.10", 7001).bytes(100, 0));
        d.send(flow().at(T0 + 70_000).to("10.1.0.10", 7001).bytes(1, 0));

        Verdict v = VerdictJson.parse(d.verdicts().get(0).value);
        assertThat(v.verdict()).isEqualTo(Outcome.PASS);
        assertThat(v.dbShare()).isEqualByComparingTo(new BigDecimal("0.9"));
        assertThat(v.reason()).isEqualTo("DB share 90% of 1000 cross-site bytes >= threshold 90%");
        assertThat(d.alerts.readKeyValuesToList()).isEmpty();
    }

    @Test
    void failsBelowTheThresholdAndRaisesAFailAlert() throws Exception {
        d.send(flow().at(T0).bytes(899, 0));
        d.send(flow().at(T0).to("10.1.0.10", 7001).bytes(101, 0));
        d.send(flow().at(T0 + 70_000).to("10.1.0.10", 7001).bytes(1, 0));

        Verdict v = VerdictJson.parse(d.verdicts().get(0).value);
        assertThat(v.verdict()).isEqualTo(Outcome.FAIL);
        assertThat(v.dbShare()).isEqualByComparingTo(new BigDecimal("0.899"));
        assertThat(d.alerts.readKeyValuesToList()).containsExactly(new KeyValue<>("10.2.0.20",
                "{\"type\":\"FAIL\",\"key\":\"10.2.0.20\",\"timeMs\":" + (T0 + 60_000) + ",\"message\":"
                        + "\"wls3 (10.2.0.20) towards region1: FAIL, DB share 89.9% of 1000 cross-site bytes"
                        + " < threshold 90%; largest other category CLUSTER (101 bytes)\"}"));
    }

    @Test
    void isInsufficientBelowMinCrossBytes() throws Exception {
        d.send(flow().at(T0).bytes(999, 0));
        d.send(flow().at(T0 + 70_000).to("10.1.0.10", 7001).bytes(1, 0));

        Verdict v = VerdictJson.parse(d.verdicts().get(0).value);
        assertThat(v.verdict()).isEqualTo(Outcome.INSUFFICIENT);
        assertThat(v.reason()).isEqualTo("999 cross-site bytes, below minCrossBytes 1000");
    }

    @Test
    void countsARecordWithinTheGraceInItsWindow() throws Exception {
        d.send(flow().at(T0).bytes(1000, 0));
        d.send(flow().at(T0 + 65_000).to("10.1.0.10", 7001).bytes(1, 0));
        d.send(flow().at(T0 + 59_000).bytes(500, 0));
        d.send(flow().at(T0 + 70_000).to("10.1.0.10", 7001).bytes(1, 0));

        Verdict v = VerdictJson.parse(d.verdicts().get(0).value);
        assertThat(v.crossBytes()).isEqualTo(1500);
        assertThat(d.metrics.late()).isZero();
    }

    @Test
    void dropsALateRecordFromItsClosedWindowButCountsItCumulatively() throws Exception {
        d.send(flow().at(T0).bytes(1000, 0));
        d.send(flow().at(T0 + 70_000).to("10.1.0.10", 7001).bytes(1, 0));
        d.send(flow().at(T0 + 30_000).bytes(500, 0));

        List<KeyValue<String, String>> out = d.verdicts();
        assertThat(out).hasSize(1);
        assertThat(VerdictJson.parse(out.get(0).value).crossBytes()).isEqualTo(1000);
        assertThat(d.metrics.late()).isEqualTo(1);
        assertThat(d.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(1501);
    }

    @Test
    void streamTimeReachesTheMetaStoreWhenTheTaskCommitsSoThatARestartKeepsClosedWindowsClosed() {
        // (the driver wipes its state directory on close, so a restart itself is ProcessorKillIT's)
        d.send(flow().at(T0 + 70_000).bytes(1000, 0));
        d.send(flow().at(T0 + 30_000).bytes(500, 0));

        KeyValueStore<String, Long> meta = d.driver.getKeyValueStore(TopologySpec.META_STORE);
        assertThat(meta.get("stream-time")).isEqualTo(T0 + 70_000);
    }
}
