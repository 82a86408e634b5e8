package io.siteflow.processor.http;

import io.siteflow.model.CallHistogram;
import io.siteflow.model.FlowRecord;
import io.siteflow.processor.query.AgentStatus;
import io.siteflow.processor.query.DbCallHistogram;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.classify.FlowSyntax;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.DbConnectionSummary;
import io.siteflow.rules.verdict.Outcome;
import io.siteflow.rules.verdict.RttSummary;
import io.siteflow.rules.verdict.TopFlow;
import io.siteflow.rules.verdict.DbCallSummary;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.Window;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fixture data for the API and browser tests: two audited servers in region2 towards region1, wls3 PASS at
 * 93.12% and wls4 FAIL at 80.00%, a region1 host named {@code <script>alert(1)</script>}, three closed
 * windows per pair ending at {@code now}, two agents (one silent), one alert, host and port talkers, and the
 * isolation inputs of {@link #isolation}.
 */
final class FakeQueries {
    static final String RULES_VERSION = "sha256:0123abcd";
    static final String SCRIPT_HOST = "<script>alert(1)</script>";
    static final String YAML = """
            threshold: 0.90
            minCrossBytes: 1000000
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.11, name: "<script>alert(1)</script>", role: app-server }
              - { address: 10.2.0.20, name: wls3, role: app-server }
              - { address: 10.2.0.21, name: wls4, role: app-server }
            isolation:
              groups:
                soa: { roles: [app-server] }
                db:  { roles: [db] }
              deny:
                - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
              allow:
                - { name: app-db, from: soa, to: db, categories: [DB], ports: [1521], l7: [oracle-tns] }
                - { name: soa-cluster, from: soa, to: soa, categories: [CLUSTER, JMS, COHERENCE] }
            """;

    private FakeQueries() {
    }

    /** The fixture with windows ending at the minute boundary at or before {@code nowMs}. */
    static StaticQueries create(long nowMs, boolean ready) {
        long end = Window.of(nowMs, 60_000).start();
        List<Verdict> history = new ArrayList<>();
        for (int i = 3; i >= 1; i--) {
            Optional<Window> w = Optional.of(new Window(end - i * 60_000L, end - (i - 1) * 60_000L));
            history.add(pass(w, i));
            history.add(fail(w, i));
        }
        StaticQueries.Snapshot s = new StaticQueries.Snapshot(List.of(pass(Optional.empty(), 1), fail(Optional.empty(), 1)),
                history, agents(nowMs), List.of(new Alert("FAIL", "10.2.0.21", nowMs - 5000,
                        "wls4 (10.2.0.21) towards region1: FAIL, DB share 80.00% of 5000000 cross-site bytes < "
                                + "threshold 90%; largest other category JMS (1000000 bytes)")),
                talkers(), portTalkers(), new RulesInfo(RULES_VERSION, YAML, nowMs - 3_600_000L), ready);
        StaticQueries q = new StaticQueries(s, flow -> {
            FlowSyntax.parse(flow); // as StreamsQueries: a flow not in the flow syntax is refused
            return "rule oracle-ports (DB) matches " + flow + ": port 1521";
        }).withDbCalls(List.of(new DbCallHistogram("10.2.0.20", "region1", CallHistogram.of(Map.of(
                CallHistogram.bucketOf(6_600), 20L, CallHistogram.bucketOf(9_500), 50L,
                CallHistogram.bucketOf(14_000), 5L)))));
        q.dbSites(List.of(DB_SITES));
        q.withSitePairRtts(SITE_PAIR_RTTS);
        q.withIsolation(isolation(end));
        return q;
    }

    /** The first isolation record starts this long before the end of the fixture's windows. */
    static final long ISOLATION_START = 3_000_000L;
    /** The site model without its isolation: block. */
    static final String YAML_WITHOUT_POLICY = YAML.substring(0, YAML.indexOf("isolation:"));
    /** An address in region2 that no hosts entry lists (the policy's {@code unlisted} group). */
    static final String UNLISTED_HOST = "10.2.0.99";
    /** The host agent of db1 that dropped packets: the pairs of db1's groups are UNVERIFIED. */
    static final String DROPPING_AGENT = "db1";
    static final String DROPPING_REASON = "dropped 0.52% of its packets (52 of 10000)";

    /**
     * The isolation inputs of the hour before {@code end}, decided by the YAML's policy (groups {@code soa}: the
     * app servers wls3, wls4 and 10.1.0.11; {@code db}: db1): allowed wls3 → db1:1521 TNS (app-db) and
     * wls4 → 10.1.0.11:8011 T3/JMS (soa-cluster); DENIED wls4 → db1:1521 carrying T3 (no-t3-to-db, two flows);
     * UNLISTED {@value #UNLISTED_HOST} → db1:1521 and wls3 → 10.1.0.11:22 (SSH, no L7); db1's host agent
     * dropping; handshake RTTs of both sites, 10.1.0.11 at 0.28 ms from region2 (a "remote" peer at LAN RTT).
     */
    static io.siteflow.rules.isolation.IsolationInputs isolation(long end) {
        return isolation(end, YAML);
    }

    /** The same traffic decided by the site model {@code yaml} (by the empty policy when it has no isolation: block). */
    static io.siteflow.rules.isolation.IsolationInputs isolation(long end, String yaml) {
        io.siteflow.rules.model.SiteModel model = io.siteflow.rules.load.SiteModelLoader.parse("sites.yaml", yaml)
                .model().orElseThrow();
        io.siteflow.rules.classify.Classifier classifier = new io.siteflow.rules.classify.Classifier(model);
        io.siteflow.rules.isolation.IsolationEvaluator e = io.siteflow.rules.isolation.IsolationEvaluator.orEmpty(classifier);
        long t = end - ISOLATION_START;
        List<FlowRecord> records = List.of(
                flow("a1", t, "10.2.0.20", "10.1.0.10", 1521, "oracle-tns", 600_000, 400, 9_000_000, 6_000),
                flow("a2", t + 60_000, "10.2.0.20", "10.1.0.10", 1521, "oracle-tns", 400_000, 300, 7_000_000, 5_000),
                flow("b1", t + 5_000, "10.2.0.21", "10.1.0.11", 8011, "t3-jms", 300_000, 200, 100_000, 150),
                flow("c1", t + 600_000, "10.2.0.21", "10.1.0.10", 1521, "t3", 120_000, 90, 80_000, 60),
                flow("c2", t + 900_000, "10.2.0.21", "10.1.0.10", 1521, "t3", 20_000, 15, 10_000, 10),
                flow("d1", t + 1_200_000, UNLISTED_HOST, "10.1.0.10", 1521, "oracle-tns", 15_000, 20, 30_000, 25),
                flow("e1", t + 1_500_000, "10.2.0.20", "10.1.0.11", 22, null, 4_000, 30, 6_000, 28));
        java.util.Map<String, io.siteflow.rules.isolation.IsolationEdge> edges = new LinkedHashMap<>();
        for (FlowRecord r : records) {
            io.siteflow.rules.classify.Classification c = classifier.classify(r);
            io.siteflow.rules.isolation.IsolationEdge edge = io.siteflow.rules.isolation.IsolationEdge.of(r, c,
                    e.decide(io.siteflow.rules.classify.Classifier.flowOf(r), c).orElseThrow(), e);
            edges.merge(edge.key(), edge, io.siteflow.rules.isolation.IsolationEdge::plus);
        }
        return new io.siteflow.rules.isolation.IsolationInputs(e, end - 3_600_000L, end, List.copyOf(edges.values()),
                List.of(new io.siteflow.rules.isolation.Unverified(DROPPING_AGENT, Optional.of("10.1.0.10"),
                        DROPPING_REASON)),
                List.of(new io.siteflow.rules.isolation.HostRtt("10.2.0.20", "region1", 812, 6_400),
                        new io.siteflow.rules.isolation.HostRtt("10.2.0.21", "region1", 100, 6_500),
                        new io.siteflow.rules.isolation.HostRtt("10.1.0.10", "region2", 912, 6_400),
                        new io.siteflow.rules.isolation.HostRtt("10.1.0.11", "region2", 20, 280)));
    }

    /** One ended TCP flow seen by the edge agent of region2, 10 s long. */
    private static FlowRecord flow(String id, long start, String src, String dst, int port, String l7, long bytes,
                                   long packets, long rbytes, long rpackets) {
        FlowRecord.Builder b = FlowRecord.builder().id("edge-r2-" + id).agent("edge-r2").iface("ens4")
                .time(start, start + 10_000).endpoints(6, src, 40_000, dst, port)
                .forward(bytes, packets, bytes + packets * 14, 0x1b).reverse(rbytes, rpackets, rbytes + rpackets * 14, 0x1b)
                .rttMicros(6_500L).isFinal(true);
        return (l7 == null ? b : b.l7(l7)).build();
    }

    /**
     * The cumulative RTT of region1-region2 as the aggregates of {@link #pass} (812 samples: p50 6.5 ms, p95 6.51 ms,
     * max 6.53 ms) and {@link #fail} (100 samples: p50 6.6 ms, p95 12 ms, max 12.5 ms) hold it, merged.
     */
    static final io.siteflow.rules.verdict.SitePairRtts SITE_PAIR_RTTS = sitePairRtts();

    private static io.siteflow.rules.verdict.SitePairRtts sitePairRtts() {
        io.siteflow.rules.verdict.RttHistogram h = new io.siteflow.rules.verdict.RttHistogram();
        for (int i = 0; i < 812; i++) { // wls3
            h.add(i < 500 ? 6500 : i < 800 ? 6510 : 6530);
        }
        for (int i = 0; i < 100; i++) { // wls4
            h.add(i < 50 ? 6600 : i < 95 ? 12_000 : 12_500);
        }
        io.siteflow.rules.verdict.SitePairRtts rtts = new io.siteflow.rules.verdict.SitePairRtts();
        rtts.merge(io.siteflow.rules.verdict.SitePair.of("region1", "region2"), h);
        return rtts;
    }

    /**
     * db1's site comparison: wls1 and wls2 local (300 µs RTT + 3 ms), wls3 and wls4 remote (6.5 ms + 3 ms), twice
     * as many connections per remote server.
     */
    static final DbSiteComparison DB_SITES = new DbSiteComparison("10.1.0.10", "db1", "region1", 2, 2,
            new DbCallSummary(12_000, new BigDecimal("200.00"), 3_300, 3_400, 3_500, 300, new BigDecimal("0.0909"),
                    3_000, new DbConnectionSummary(20, 20)),
            new DbCallSummary(6_000, new BigDecimal("100.00"), 9_500, 9_700, 9_800, 6_500, new BigDecimal("0.6842"),
                    3_000, new DbConnectionSummary(40, 40)),
            new BigDecimal("2.8788"), new BigDecimal("2.0000"));

    /** wls3 → region1, PASS, DB share 93.12%, {@code cross = 10 000 000 / div}. */
    static Verdict pass(Optional<Window> w, long div) {
        long cross = 10_000_000L / div;
        Map<Category, Long> cats = new LinkedHashMap<>();
        cats.put(Category.DB, cross * 9312 / 10000);
        cats.put(Category.CLUSTER, cross - cross * 9312 / 10000);
        Map<String, Long> addrs = new LinkedHashMap<>();
        addrs.put("10.1.0.10", cross * 9312 / 10000);
        addrs.put("10.1.0.11", cross - cross * 9312 / 10000);
        return new Verdict("10.2.0.20", "wls3", "region2", "region1", w, Outcome.PASS, new BigDecimal("0.9312"),
                new BigDecimal("0.9"), cross, cats, addrs, new RttSummary(6500, 6510, 6530, 812),
                new DbConnectionSummary(20, 42), RULES_VERSION,
                "DB share 93.12% of " + cross + " cross-site bytes >= threshold 90%", List.of());
    }

    /** wls4 → region1, FAIL, DB share 80.00%, {@code cross = 5 000 000 / div}. */
    static Verdict fail(Optional<Window> w, long div) {
        long cross = 5_000_000L / div;
        Map<Category, Long> cats = new LinkedHashMap<>();
        cats.put(Category.DB, cross * 8 / 10);
        cats.put(Category.JMS, cross - cross * 8 / 10);
        Map<String, Long> addrs = new LinkedHashMap<>();
        addrs.put("10.1.0.10", cross * 8 / 10);
        addrs.put("10.1.0.11", cross - cross * 8 / 10);
        return new Verdict("10.2.0.21", "wls4", "region2", "region1", w, Outcome.FAIL, new BigDecimal("0.8000"),
                new BigDecimal("0.9"), cross, cats, addrs, new RttSummary(6600, 12000, 12500, 100),
                new DbConnectionSummary(10, 12), RULES_VERSION,
                "DB share 80.00% of " + cross + " cross-site bytes < threshold 90%; largest other category JMS ("
                        + (cross - cross * 8 / 10) + " bytes)",
                List.of(new TopFlow(6, "10.2.0.21", 40112, "10.1.0.11", 8011, "t3-jms", Category.JMS, "jms-channel",
                        cross - cross * 8 / 10)));
    }

    private static List<AgentStatus> agents(long nowMs) {
        return List.of(new AgentStatus("edge-r1", "ens4", nowMs - 45_000, 1000, 0, 0, 0, 0, 0, true, null),
                new AgentStatus("wls3", "ens3", nowMs - 1000, 123456, 7, 0, 2, 10, 0, false, null));
    }

    private static List<TalkerRow> talkers() {
        return List.of(new TalkerRow("10.2.0.20", 0, "10.1.0.10", 0, "DB", 1000, 900, 800, 90000, 2000,
                        4000, 3000, 2000, 300000, 8000, 1000),
                new TalkerRow("10.2.0.21", 0, "10.1.0.11", 0, "JMS", 100, 90, 80, 9000, 200,
                        40, 30, 20, 3000, 80, 1000));
    }

    private static List<TalkerRow> portTalkers() {
        return List.of(new TalkerRow("10.2.0.20", 40000, "10.1.0.10", 1521, "DB", 1000, 900, 800, 90000, 2000,
                4000, 3000, 2000, 300000, 8000, 1000));
    }
}
