package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.wire.Heartbeat;
import io.siteflow.processor.topology.isolation.EdgeCodec;
import io.siteflow.processor.topology.isolation.IsolationStores;
import io.siteflow.rules.isolation.Decision;
import io.siteflow.rules.isolation.HostRtt;
import io.siteflow.rules.isolation.IsolationEdge;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.IsolationInputs;
import io.siteflow.rules.isolation.IsolationInputsBuilder;
import io.siteflow.rules.isolation.IsolationJson;
import io.siteflow.rules.isolation.IsolationReport;
import io.siteflow.rules.isolation.Unverified;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.load.SiteModelLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The isolation stage under {@code TopologyTestDriver}: decisions per edge and window, written to
 * {@code siteflow.isolation} when a window closes; the query side's inputs equal the offline accumulation
 * ({@link IsolationInputsBuilder}) of the same records; one observer per edge; ISOLATION alerts raised, repeated
 * and CLEARED, none for allowed traffic or without a policy; the metric; silent observers.
 */
class IsolationStageTest {
    static final String POLICY = """
            isolation:
              groups:
                soa: { hosts: [wls1, wls3, wls5] }
                db: { roles: [db] }
              deny:
                - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
              allow:
                - { name: app-db, from: soa, to: db, categories: [DB], ports: [1521] }
            """;
    static final String SITES = Flows.SITES_YAML + POLICY;
    static final String ALLOWED = "10.2.0.20|10.1.0.10|1521|6";
    static final String DENIED = "10.2.0.20|10.1.0.10|1522|6";
    static final String UNLISTED = "10.3.0.30|10.1.0.11|7001|6";

    @TempDir
    Path dir;

    /** The records of the first tests: allowed, denied (T3 to the database), unlisted, out of scope, with RTTs. */
    static List<FlowRecord> mix() {
        return List.of(
                flow().id("i-1").at(T0 + 1_000).bytes(1_000, 200).rtt(6_500).build(),
                flow().id("i-2").span(T0 + 2_000, T0 + 3_000).to("10.1.0.10", 1522).bytes(300, 100).build().toBuilder()
                        .l7("t3").isFinal(true).build(),
                flow().id("i-3").at(T0 + 4_000).from("10.3.0.30", 41000).to("10.1.0.11", 7001).bytes(500, 0)
                        .rtt(9_000).build(),
                flow().id("i-4").at(T0 + 5_000).from("10.1.0.11", 42000).to("10.1.0.10", 1521).bytes(700, 0)
                        .rtt(300).build(), // same site: out of scope, its RTT counts
                flow().id("i-5").at(T0 + 6_000).from("10.9.9.9", 5555).to("10.8.8.8", 80).bytes(50, 0).build(),
                flow().id("i-6").at(T0 + 61_000).bytes(2_000, 400).build().toBuilder().isFinal(true).build(),
                flow().id("i-7").at(T0 + 62_000).to("10.1.0.10", 1522).bytes(10, 10).build().toBuilder().l7("t3").build());
    }

    @Test
    void writesEachClosedWindowsEdgesAndTheQueryEqualsTheOfflineAccumulation() throws Exception {
        try (Driver d = new Driver(TopologyConfig.DEFAULTS, dir, Instant.ofEpochMilli(T0))) {
            d.withSites(SITES);
            mix().forEach(d::send);
            d.send(flow().id("i-8").at(T0 + 125_000).bytes(1, 0)); // stream time passes the first window's end + grace

            // the first window's three edges, by part key (edge, category, L7) and window, when stream time closed
            // it; the second window is still open
            List<TestRecord<String, String>> out = d.isolation.readRecordsToList();
            assertThat(out).extracting(TestRecord::key, TestRecord::timestamp).containsExactly(
                    org.assertj.core.groups.Tuple.tuple(ALLOWED + "|DB|unknown|" + T0, T0 + 60_000),
                    org.assertj.core.groups.Tuple.tuple(DENIED + "|UNKNOWN|t3|" + T0, T0 + 60_000),
                    org.assertj.core.groups.Tuple.tuple(UNLISTED + "|CLUSTER|unknown|" + T0, T0 + 60_000));
            IsolationEdge denied = EdgeCodec.parse(out.get(1).value());
            assertThat(denied).isEqualTo(new IsolationEdge("10.2.0.20", "10.1.0.10", 1522, 6, "edge-b", Decision.DENIED,
                    "no-t3-to-db", true, io.siteflow.rules.model.Category.UNKNOWN, "t3", List.of("soa"), List.of("db"),
                    "region2", "region1", 400, 2, 1, T0 + 2_000, T0 + 3_000, Optional.of(
                            new io.siteflow.rules.isolation.NearestAllow("app-db", List.of("categories: UNKNOWN not in [DB]",
                                    "ports: 1522 not in [1521]")))));
            assertThat(out.get(1).value()).endsWith(",\"windowStart\":" + T0 + ",\"windowEnd\":" + (T0 + 60_000) + "}");
            assertThat(EdgeCodec.parse(out.get(0).value())).extracting(IsolationEdge::decision, IsolationEdge::rule,
                    IsolationEdge::bytes, IsolationEdge::flows).containsExactly(Decision.ALLOWED, "app-db", 1_200L, 0L);
            assertThat(EdgeCodec.parse(out.get(2).value())).extracting(IsolationEdge::decision, IsolationEdge::rule,
                    IsolationEdge::violates).containsExactly(Decision.UNLISTED, "", true);

            // the whole period: every window merged per edge, RTTs of both ends, as offline
            d.driver.advanceWallClockTime(Duration.ofSeconds(1)); // a commit: the stores hold what the step wrote
            IsolationInputs streamed = d.queries().isolation(0, Long.MAX_VALUE).orElseThrow();
            IsolationInputs offline = offline(d, mixAndLast());
            assertThat(streamed.edges()).isEqualTo(offline.edges()).hasSize(3);
            assertThat(streamed.edges().get(0).bytes()).isEqualTo(1_200 + 2_400 + 1);
            assertThat(streamed.rtts()).isEqualTo(offline.rtts()).contains(new HostRtt("10.1.0.11", "region1", 1, 300),
                    new HostRtt("10.3.0.30", "region1", 1, 9_000), new HostRtt("10.1.0.10", "region2", 1, 6_500));
            assertThat(streamed.evaluator().policy().deny()).hasSize(1);
            // a period of the second window only
            assertThat(d.queries().isolation(T0 + 60_000, T0 + 120_000).orElseThrow().edges())
                    .extracting(IsolationEdge::key, IsolationEdge::bytes)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(ALLOWED, 2_400L),
                            org.assertj.core.groups.Tuple.tuple(DENIED, 20L));

            // the metric: the bytes the stage added, per decision and rule
            assertThat(d.metrics.isolationBytes(Decision.ALLOWED, "app-db")).isEqualTo(1_200 + 2_400 + 1);
            assertThat(d.metrics.isolationBytes(Decision.DENIED, "no-t3-to-db")).isEqualTo(420);
            assertThat(d.metrics.isolationBytes(Decision.UNLISTED, "")).isEqualTo(500);
        }
    }

    @Test
    void t3OnTheDatabasePortBesideAllowedTrafficOfTheSameEdgeIsAViolationOfItsOwn() throws Exception {
        try (Driver d = new Driver(TopologyConfig.DEFAULTS, dir, Instant.ofEpochMilli(T0))) {
            d.withSites(SITES);
            List<FlowRecord> records = List.of(
                    flow().id("m-1").at(T0 + 1_000).bytes(5_000, 1_000).build(), // allowed first
                    flow().id("m-2").at(T0 + 2_000).bytes(300, 100).build().toBuilder().l7("t3").build(),
                    flow().id("m-3").at(T0 + 3_000).bytes(2_000, 0).build());
            records.forEach(d::send);
            d.driver.advanceWallClockTime(Duration.ofSeconds(1));

            IsolationReport streamed = IsolationReport.of(d.queries().isolation(0, Long.MAX_VALUE).orElseThrow());
            IsolationEvaluator e = new IsolationEvaluator(new Classifier(SiteModelLoader.parse("sites.yaml", SITES)
                    .orThrow()));
            IsolationInputsBuilder check = new IsolationInputsBuilder(e);
            records.forEach(check::add);

            assertThat(streamed.violations()).extracting(IsolationEdge::key, IsolationEdge::decision,
                            IsolationEdge::rule, IsolationEdge::l7, IsolationEdge::bytes)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(ALLOWED, Decision.DENIED, "no-t3-to-db", "t3",
                            400L));
            assertThat(IsolationJson.write(streamed))
                    .isEqualTo(IsolationJson.write(IsolationReport.of(check.build(0, Long.MAX_VALUE, List.of()))));
        }
    }

    @Test
    void theMetricIsExportedAsSiteflowIsolationBytesTotalByDecisionAndRule() {
        var registry = new io.micrometer.prometheusmetrics.PrometheusMeterRegistry(
                io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
        PipelineMetrics m = new PipelineMetrics(registry);

        m.isolationBytes(Decision.DENIED, "no-t3-to-db", 400);
        m.isolationBytes(Decision.DENIED, "no-t3-to-db", 20);
        m.isolationBytes(Decision.UNLISTED, "", 500);

        assertThat(registry.scrape()).contains(
                "siteflow_isolation_bytes_total{decision=\"DENIED\",rule=\"no-t3-to-db\"} 420.0",
                "siteflow_isolation_bytes_total{decision=\"UNLISTED\",rule=\"\"} 500.0");
    }

    private static List<FlowRecord> mixAndLast() {
        List<FlowRecord> all = new ArrayList<>(mix());
        all.add(flow().id("i-8").at(T0 + 125_000).bytes(1, 0).build());
        return all;
    }

    /**
     * The offline accumulation of the records in the topology's parts ({@link IsolationEdge#partKey}, as
     * {@code siteflow isolation propose} keeps them; the check's report folds them: {@code IsolationApiTest}).
     */
    private static IsolationInputs offline(Driver d, List<FlowRecord> records) throws Exception {
        IsolationEvaluator e = new IsolationEvaluator(new Classifier(SiteModelLoader.parse("sites.yaml", SITES).orThrow()));
        IsolationInputsBuilder b = IsolationInputsBuilder.forProposal(e);
        records.forEach(b::add);
        return b.build(0, Long.MAX_VALUE, List.of());
    }

    @Test
    void anEdgeCountsTheRecordsOfItsFirstAgentOnly() {
        try (Driver d = new Driver(TopologyConfig.DEFAULTS, dir, Instant.ofEpochMilli(T0))) {
            d.withSites(SITES);
            d.send(flow().id("o-1").agent("edge-b").at(T0).to("10.1.0.10", 1522).bytes(100, 0));
            d.send(flow().id("o-2").agent("wls3").at(T0 + 1_000).to("10.1.0.10", 1522).bytes(100, 0));
            d.send(flow().id("o-3").agent("edge-b").at(T0 + 2_000).to("10.1.0.10", 1522).bytes(100, 0));
            d.driver.advanceWallClockTime(Duration.ofSeconds(1));

            assertThat(d.queries().isolation(0, Long.MAX_VALUE).orElseThrow().edges())
                    .extracting(IsolationEdge::observer, IsolationEdge::bytes).containsExactly(
                            org.assertj.core.groups.Tuple.tuple("edge-b", 200L));
            assertThat(d.metrics.isolationOtherObserver.count()).isEqualTo(1.0);
            assertThat(d.driver.<String, String>getKeyValueStore(IsolationStores.OBSERVERS).get(DENIED))
                    .isEqualTo("edge-b");
        }
    }

    @Test
    void raisesAnIsolationAlertRepeatsItAndClearsItAfterAQuietRepeatInterval() {
        TopologyConfig config = TopologyConfig.DEFAULTS.withAlertRepeat(Duration.ofMinutes(5));
        try (Driver d = new Driver(config, dir, Instant.ofEpochMilli(T0 + 3_600_000))) { // no record ahead of it
            d.withSites(SITES);
            d.send(flow().id("a-1").at(T0 + 1_000).to("10.1.0.10", 1522).bytes(100, 0)); // no T3 seen: UNLISTED, a violation too
            d.send(t3("a-2", T0 + 2_000));
            d.send(t3("a-3", T0 + 90_000)); // violating still, before the repeat interval: no alert
            d.send(flow().id("a-4").at(T0 + 120_000).bytes(5_000, 0)); // allowed: no alert
            d.send(t3("a-5", T0 + 302_000)); // 5 min after the alert: repeated
            d.send(flow().id("a-6").at(T0 + 600_000).bytes(5_000, 0)); // allowed
            d.send(flow().id("a-7").at(T0 + 660_000).bytes(5_000, 0)); // 5 min after the last violating window's end

            List<KeyValue<String, String>> iso = d.alerts.readKeyValuesToList().stream()
                    .filter(kv -> kv.key.equals(DENIED)).toList();
            String raised = "isolation: 10.2.0.20 (region2: soa) -> 10.1.0.10:1522/6 (region1: db), UNKNOWN t3: "
                    + "denied by no-t3-to-db";
            assertThat(iso).extracting(kv -> AlertJson.parse(kv.value)).containsExactly(
                    new Alert("ISOLATION", DENIED, T0 + 1_000, "isolation: 10.2.0.20 (region2: soa) -> "
                            + "10.1.0.10:1522/6 (region1: db), UNKNOWN unknown: no rule allows it (UNLISTED)"),
                    new Alert("ISOLATION", DENIED, T0 + 302_000, raised + " (repeated: still so since the alert of "
                            + Instant.ofEpochMilli(T0 + 1_000) + ")"),
                    new Alert("CLEARED", DENIED, T0 + 660_000, "isolation: no violating traffic on " + DENIED + " since "
                            + Instant.ofEpochMilli(T0 + 360_000) + " (PT5M quiet)"));
            // allowed traffic raised none; the alerts are in the query side's list too
            d.driver.advanceWallClockTime(Duration.ofSeconds(1));
            assertThat(d.queries().alerts(10)).extracting(Alert::key).filteredOn(k -> k.contains("|1521|")).isEmpty();
            assertThat(d.queries().alerts(10)).extracting(Alert::type, Alert::key).contains(
                    org.assertj.core.groups.Tuple.tuple("CLEARED", DENIED));
        }
    }

    private static FlowRecord t3(String id, long at) {
        return flow().id(id).at(at).to("10.1.0.10", 1522).bytes(100, 0).build().toBuilder().l7("t3").build();
    }

    @Test
    void aModelWithoutAPolicyDecidesEveryCrossSiteEdgeUnlistedAndRaisesNoAlert() {
        try (Driver d = new Driver(TopologyConfig.DEFAULTS, dir, Instant.ofEpochMilli(T0 + 3_600_000))) {
            d.withSites(Flows.SITES_YAML);
            d.send(t3("n-1", T0));
            d.send(flow().id("n-2").at(T0 + 500_000).bytes(10, 0));
            d.driver.advanceWallClockTime(Duration.ofSeconds(1));

            assertThat(d.alerts.readKeyValuesToList()).extracting(kv -> kv.key).doesNotContain(DENIED, ALLOWED);
            assertThat(d.queries().isolation(0, Long.MAX_VALUE).orElseThrow().edges())
                    .extracting(IsolationEdge::key, IsolationEdge::decision).containsExactly(
                            org.assertj.core.groups.Tuple.tuple(ALLOWED, Decision.UNLISTED),
                            org.assertj.core.groups.Tuple.tuple(DENIED, Decision.UNLISTED));
        }
    }

    @Test
    void anObserverSilentInThePeriodOrDroppingIsUnverified() {
        try (Driver d = new Driver(TopologyConfig.DEFAULTS, dir, Instant.ofEpochMilli(T0 + 3_600_000))) {
            d.withSites(SITES);
            heartbeat(d, "wls3", T0, 1_000, 0);
            heartbeat(d, "wls3", T0 + 20_000, 2_000, 0);
            heartbeat(d, "wls3", T0 + 320_000, 3_000, 0); // five minutes without a heartbeat
            heartbeat(d, "edge-b", T0 + 3_590_000, 10_000, 11); // drops above 0.1%
            d.send(t3("u-1", T0 + 1_000));

            assertThat(d.queries().isolation(T0, T0 + 600_000).orElseThrow().unverified()).containsExactly(
                    new Unverified("edge-b", Optional.empty(), "dropped 11 of 10011 packets (more than 0.1%)"),
                    new Unverified("wls3", Optional.of("10.2.0.20"), "silent from " + Instant.ofEpochMilli(T0 + 20_000)
                            + " to " + Instant.ofEpochMilli(T0 + 320_000) + "; silent since "
                            + Instant.ofEpochMilli(T0 + 320_000)));
            // after the silence and before the wall clock: heard from within the limit, wls3 is not unverified
            assertThat(d.queries().isolation(T0 + 330_000, T0 + 340_000).orElseThrow().unverified())
                    .extracting(Unverified::agent).containsExactly("edge-b");
            // a period ending now: wls3's last heartbeat is older than the silence limit
            assertThat(d.queries().isolation(T0 + 3_000_000, T0 + 3_600_000).orElseThrow().unverified())
                    .extracting(Unverified::agent, Unverified::reason).containsExactly(
                            org.assertj.core.groups.Tuple.tuple("edge-b", "dropped 11 of 10011 packets (more than 0.1%)"),
                            org.assertj.core.groups.Tuple.tuple("wls3", "silent since " + Instant.ofEpochMilli(T0 + 320_000)));
            // the gap is not a heartbeat
            assertThat(d.queries().agents()).extracting(a -> a.agent()).containsExactly("edge-b", "wls3");
        }
    }

    private static void heartbeat(Driver d, String agent, long time, long received, long dropped) {
        d.agents.pipeInput(agent, new String(new Heartbeat(agent, "ens3", time, received, dropped, 0, 0, 0, 0, 0)
                .toJson(), StandardCharsets.UTF_8));
    }
}
