package io.siteflow.rules.verdict;

import static io.siteflow.rules.verdict.Records.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.audit.CaptureInfo;
import io.siteflow.rules.audit.OfflineAudit;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.SitePairRtt;
import io.siteflow.model.FlowRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OfflineAuditTest {
    static final long T0 = 1_764_000_000_000L;
    static final long M = 60_000L;

    static final String YAML = """
            minCrossBytes: 1000
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
              region3: { cidrs: [10.3.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.11, name: wls1, role: app-server }
              - { address: 10.2.0.20, name: wls3, role: app-server }
              - { address: 10.3.0.10, name: db3, role: db }
            """;

    static SiteModel model(String yaml) throws Exception {
        return SiteModelLoader.parse("sites.yaml", yaml).orThrow();
    }

    @Test
    void auditsAppServersInSitesWithoutDbTowardsEverySiteWithOne() throws Exception {
        assertThat(AuditPairs.of(model(YAML))).extracting(AuditPair::key)
                .containsExactly("10.2.0.20 region1", "10.2.0.20 region3");
    }

    @Test
    void explicitAuditPairsReplaceTheDerivedOnes() throws Exception {
        SiteModel m = model(YAML + "audit:\n  - { server: wls1, remoteSite: region3 }\n");

        assertThat(AuditPairs.of(m)).extracting(AuditPair::key).containsExactly("10.1.0.11 region3");
    }

    @Test
    void countsBothDirectionsOfEveryFlowBetweenServerAndRemoteSite() throws Exception {
        OfflineAudit audit = new OfflineAudit(model(YAML), M);
        audit.accept(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 4000, 5000, T0));          // DB 9000
        audit.accept(tcp("10.1.0.11", 40001, "10.2.0.20", 7001, 300, 200, T0 + 10));       // CLUSTER 500, initiated by the remote
        audit.accept(tcp("10.2.0.20", 40002, "10.1.0.11", 12345, 400, 100, T0 + 20));      // UNKNOWN 500
        audit.accept(tcp("10.2.0.20", 40003, "10.2.0.99", 1521, 1_000_000, 0, T0 + 30));   // same site: not cross
        audit.accept(tcp("10.2.0.21", 40004, "10.1.0.10", 1521, 1_000_000, 0, T0 + 40));   // another server

        Verdict v = audit.report("test.pcap", 0, 0).verdicts().get(0);

        assertThat(v.crossBytes()).isEqualTo(10_000);
        assertThat(v.categories()).containsExactly(Map.entry(Category.DB, 9000L), Map.entry(Category.CLUSTER, 500L),
                Map.entry(Category.UNKNOWN, 500L));
        assertThat(v.addresses()).containsExactly(Map.entry("10.1.0.10", 9000L), Map.entry("10.1.0.11", 1000L));
        assertThat(v.dbShare()).isEqualTo(new java.math.BigDecimal("0.9000"));
        assertThat(v.verdict()).isEqualTo(Outcome.PASS);
        assertThat(v.reason()).isEqualTo("DB share 90% of 10000 cross-site bytes >= threshold 90%");
        assertThat(v.topFlows()).extracting(TopFlow::dstPort).containsExactly(7001, 12345);
    }

    @Test
    void givesOneVerdictPerWindowByRecordStartPlusTheCumulativeOne() throws Exception {
        OfflineAudit audit = new OfflineAudit(model(YAML), M);
        audit.accept(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 900, 0, T0 + 1, T0 + M + 5, 6500L, "oracle-tns"));
        audit.accept(tcp("10.2.0.20", 40001, "10.1.0.11", 7001, 100, 0, T0 + 2, T0 + 3, null, "t3"));
        audit.accept(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 800, 0, T0 + M + 1, T0 + M + 9, null, "oracle-tns"));
        audit.accept(tcp("10.2.0.20", 40001, "10.1.0.11", 7001, 200, 0, T0 + M + 2, T0 + M + 3, null, "t3"));
        audit.accept(tcp("10.2.0.20", 40002, "10.3.0.10", 1521, 10, 0, T0 + 2 * M, T0 + 2 * M, 20_000L, null));

        AuditReport r = audit.report("test.pcap", 0, 0);

        assertThat(r.windows()).extracting(v -> v.remoteSite() + "@" + (v.window().get().start() - T0) + ":"
                        + v.verdict() + ":" + v.crossBytes() + ":" + v.dbShare().toPlainString())
                .containsExactly("region1@0:PASS:1000:0.9000", "region1@60000:FAIL:1000:0.8000",
                        "region3@120000:INSUFFICIENT:10:1.0000");
        assertThat(r.verdicts()).extracting(v -> v.remoteSite() + ":" + v.verdict() + ":" + v.crossBytes())
                .containsExactly("region1:FAIL:2000", "region3:INSUFFICIENT:10");
        assertThat(r.verdicts().get(0).window()).isEmpty();
        assertThat(r.verdicts().get(0).dbConnections()).isEqualTo(new DbConnectionSummary(1, 1));
        assertThat(r.verdicts().get(0).rttMicros()).isEqualTo(new RttSummary(6500, 6500, 6500, 1));
        assertThat(r.sitePairs()).containsExactly(
                new SitePairRtt("region1", "region2", new RttSummary(6500, 6500, 6500, 1)),
                new SitePairRtt("region2", "region3", new RttSummary(20_000, 20_000, 20_000, 1)));
        assertThat(r.sitePairs().get(1).aboveLimit()).isTrue();
        assertThat(r.capture()).isEqualTo(new CaptureInfo("test.pcap", 5, T0 + 1, T0 + 2 * M, 2010, 0, 0, 0, 0));
    }

    @Test
    void aFlowSeenByTheHostAgentAndTheEdgeAgentCountsOnceAsTheHostAgentSawIt() throws Exception {
        String yaml = YAML + "threshold: 0.5\n";
        List<FlowRecord> host = List.of(
                Records.withCalls(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 4000, 5000, T0, T0 + 900, 6500L, null), 3, 9000),
                tcp("10.1.0.11", 40001, "10.2.0.20", 7001, 300, 200, T0 + 10, T0 + 20, 6400L, null),
                tcp("10.2.0.20", 40002, "10.1.0.11", 12345, 400, 100, T0 + M, T0 + M + 5, null, null));
        List<FlowRecord> both = new ArrayList<>();
        for (FlowRecord r : host) { // the host agent's copy of each flow, then the edge agent's
            both.add(Records.seenBy(r, "wls3"));
            both.add(Records.seenBy(r, "edge-b"));
        }
        OfflineAudit hostOnly = new OfflineAudit(model(yaml), M);
        host.forEach(r -> hostOnly.accept(Records.seenBy(r, "wls3")));
        OfflineAudit twoObservers = new OfflineAudit(model(yaml), M);
        both.forEach(twoObservers::accept);

        AuditReport one = hostOnly.report("wls3.json", 0, 0);
        AuditReport two = twoObservers.report("merged.json", 0, 0);

        assertThat(two.verdicts()).extracting(v -> v.remoteSite() + ":" + v.verdict() + ":" + v.crossBytes()
                + ":" + v.dbCalls().calls()).containsExactly("region1:PASS:10000:3", "region3:INSUFFICIENT:0:0");
        assertThat(two.verdicts().stream().map(VerdictJson::toJson).toList())
                .isEqualTo(one.verdicts().stream().map(VerdictJson::toJson).toList());
        assertThat(two.windows().stream().map(VerdictJson::toJson).toList())
                .isEqualTo(one.windows().stream().map(VerdictJson::toJson).toList());
        assertThat(two.dbSites()).isEqualTo(one.dbSites());
        assertThat(two.dbSites().get(0).remote().calls()).isEqualTo(3);
    }

    @Test
    void countsRecordsWithBadAddressesInsteadOfFailing() throws Exception {
        OfflineAudit audit = new OfflineAudit(model(YAML), M);

        boolean accepted = audit.accept(tcp("10.2.0.20", 40000, "not-an-address", 1521, 5000, 5000, T0));

        assertThat(accepted).isFalse();
        assertThat(audit.report("t", 0, 0).capture()).isEqualTo(new CaptureInfo("t", 0, 0, 0, 0, 0, 1, 0, 0));
    }

    @Test
    void observerDropsMakeEveryVerdictInsufficient() throws Exception {
        OfflineAudit audit = new OfflineAudit(model(YAML), M);
        audit.accept(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 5000, 5000, T0));

        Verdict v = audit.report("test.pcap", 1000, 2).verdicts().get(0);

        assertThat(v.verdict()).isEqualTo(Outcome.INSUFFICIENT);
        assertThat(v.reason()).isEqualTo("the observer dropped more than 0.1% of packets");
    }

    @Test
    void verdictJsonRoundTripsAndUsesTheDesignFieldNames() throws Exception {
        OfflineAudit audit = new OfflineAudit(model(YAML), M);
        audit.accept(tcp("10.2.0.20", 40000, "10.1.0.10", 1521, 900, 0, T0 + 1, T0 + 5, 6500L, "oracle-tns"));
        audit.accept(tcp("10.2.0.20", 40001, "10.1.0.11", 7001, 100, 0, T0 + 2, T0 + 3, null, "t3"));
        AuditReport r = audit.report("test.pcap", 0, 0);
        Verdict windowed = r.windows().get(0);
        String version = r.rules();

        String json = VerdictJson.toJson(windowed);

        assertThat(json).isEqualTo("{\"server\":\"10.2.0.20\",\"name\":\"wls3\",\"site\":\"region2\","
                + "\"remoteSite\":\"region1\",\"window\":{\"start\":1764000000000,\"end\":1764000060000},"
                + "\"verdict\":\"PASS\",\"dbShare\":0.9000,\"threshold\":0.9,\"crossBytes\":1000,"
                + "\"categories\":{\"DB\":900,\"CLUSTER\":100},\"addresses\":{\"10.1.0.10\":900,\"10.1.0.11\":100},"
                + "\"rttMicros\":{\"p50\":6500,\"p95\":6500,\"max\":6500,\"samples\":1},"
                + "\"dbConnections\":{\"median\":1,\"max\":1},\"dbCalls\":{\"calls\":0,\"callsPerSecond\":0.00,"
                + "\"callMicros\":{\"p50\":0,\"p95\":0,\"p99\":0},\"rttMicros\":6500,\"networkShare\":0.0000,"
                + "\"serviceMicros\":{\"p50\":0},\"connections\":{\"median\":1,\"max\":1}},"
                + "\"rules\":\"" + version + "\","
                + "\"reason\":\"DB share 90% of 1000 cross-site bytes >= threshold 90%\","
                + "\"topFlows\":[{\"proto\":6,\"src\":\"10.2.0.20\",\"srcPort\":40001,\"dst\":\"10.1.0.11\","
                + "\"dstPort\":7001,\"l7\":\"t3\",\"category\":\"CLUSTER\",\"rule\":\"fmw-t3-giop\",\"bytes\":100}]}");
        assertThat(VerdictJson.parse(json)).isEqualTo(windowed);
        Verdict cumulative = r.verdicts().get(1);
        assertThat(VerdictJson.toJson(cumulative)).doesNotContain("\"window\"").contains("\"rttMicros\":{\"samples\":0}");
        assertThat(VerdictJson.parse(VerdictJson.toJson(cumulative))).isEqualTo(cumulative);
    }

    @Test
    void rejectsVerdictJsonWithoutARequiredField() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> VerdictJson.parse("{\"server\":\"10.2.0.20\"}"))
                .isInstanceOf(VerdictFormatException.class).hasMessage("verdict: missing field \"name\"");
    }

    @Test
    void aggregatesMergeAndRoundTripThroughJson() throws Exception {
        SiteModel m = model(YAML);
        io.siteflow.rules.classify.Classifier c = new io.siteflow.rules.classify.Classifier(m);
        AuditPair pair = AuditPairs.of(m).get(0);
        PairAggregate all = new PairAggregate();
        PairAggregate a = new PairAggregate();
        PairAggregate b = new PairAggregate();
        for (int i = 0; i < 40; i++) {
            var r = tcp("10.2.0.20", 40000 + i % 7, "10.1.0." + (10 + i % 2), i % 2 == 0 ? 1521 : 7001, 100 + i, i,
                    T0 + i * 10_000L, T0 + i * 10_000L + 500, i % 3 == 0 ? 6000L + i : null, null);
            var cl = c.classify(r);
            all.add(r, cl, r.dst());
            (i < 25 ? a : b).add(r, cl, r.dst());
        }
        PairAggregate restored = PairAggregateJson.parse(PairAggregateJson.toBytes(a.merge(b)));

        Verdict expected = VerdictCalculator.verdict(pair, all, m.threshold(), 0, Optional.empty(), false, "v");
        assertThat(VerdictCalculator.verdict(pair, restored, m.threshold(), 0, Optional.empty(), false, "v"))
                .isEqualTo(expected);
        assertThat(new String(PairAggregateJson.toBytes(restored))).isEqualTo(new String(PairAggregateJson.toBytes(all)));
    }
}
