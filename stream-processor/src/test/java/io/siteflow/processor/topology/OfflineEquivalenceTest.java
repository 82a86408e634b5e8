package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.processor.http.LinkView;
import io.siteflow.processor.http.SiteDirectory;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.audit.OfflineAudit;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.DbSiteJson;
import io.siteflow.rules.verdict.SitePairRtt;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictJson;
import io.siteflow.rules.verdict.Window;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OfflineEquivalenceTest {
    @TempDir
    Path dir;

    @Test
    void streamingGivesTheOfflineAuditsVerdictsSharesAndBytes() throws Exception {
        List<FlowRecord> records = mixedRecords();
        AuditReport report = offlineReport(records);

        try (Driver d = new Driver(dir).withSites(Flows.SITES_YAML)) {
            records.forEach(d::send);

            List<String> streamed = d.queries().cumulativeVerdicts().stream().map(VerdictJson::toJson).toList();
            List<String> expected = report.verdicts().stream().sorted(Comparator.comparing(Verdict::server)
                    .thenComparing(Verdict::remoteSite)).map(VerdictJson::toJson).toList();
            assertThat(streamed).hasSize(2).isEqualTo(expected);
            assertThat(report.verdicts()).allSatisfy(v -> assertThat(v.dbConnections().max()).isGreaterThan(1));
            assertThat(report.verdicts()).allSatisfy(v -> assertThat(v.dbCalls().calls()).isGreaterThan(100));
            List<String> closed = d.verdicts().stream().map(kv -> kv.value).toList();
            List<String> offlineClosed = report.windows().stream()
                    .filter(v -> v.window().orElseThrow().end() + 10_000 <= LAST)
                    .map(VerdictJson::toJson).toList();
            assertThat(closed).hasSize(10).isEqualTo(offlineClosed);
        }
    }

    @Test
    void streamingGivesTheOfflineAuditsSiteComparisonWithTheLocalServersBesideTheRemoteOnes() throws Exception {
        List<FlowRecord> records = new ArrayList<>(mixedRecords());
        Random rnd = new Random(7);
        for (int i = 0; i < 100; i++) { // wls1, in db1's site: 300 µs RTT and 3-4 ms calls, 5 connections
            long t = T0 + i * 2_000L;
            Flows f = flow().from("10.1.0.11", 41_000 + i % 5).to("10.1.0.10", 1521).span(t, t + rnd.nextInt(2_000))
                    .bytes(rnd.nextInt(20_000), rnd.nextInt(20_000)).calls(1 + rnd.nextInt(10), 3_000 + rnd.nextInt(1_000));
            out(records, i % 10 == 0 ? f.rtt(300) : f);
        }
        AuditReport report = offlineReport(records);

        try (Driver d = new Driver(dir).withSites(Flows.SITES_YAML)) {
            records.forEach(d::send);

            assertThat(json(d.queries().dbSites())).isEqualTo(json(report.dbSites()));
            DbSiteComparison db1 = report.dbSites().get(0);
            assertThat(db1.localServers()).isEqualTo(1);
            assertThat(db1.remoteServers()).isEqualTo(2);
            assertThat(db1.local().calls()).isPositive();
            assertThat(db1.remote().calls()).isPositive();
            assertThat(db1.callRatio()).isGreaterThan(BigDecimal.ONE);
            assertThat(d.queries().cumulativeVerdicts().stream().map(VerdictJson::toJson).toList()).isEqualTo(
                    report.verdicts().stream().sorted(Comparator.comparing(Verdict::server)
                            .thenComparing(Verdict::remoteSite)).map(VerdictJson::toJson).toList());
        }
    }

    @Test
    void twoObserversOfTheSameFlowsGiveTheOfflineAuditsVerdictsOfTheHostAgentsAlone() throws Exception {
        List<FlowRecord> hostAgents = new ArrayList<>();
        List<FlowRecord> both = new ArrayList<>();
        for (FlowRecord r : mixedRecords()) { // each server's host agent's copy, then the edge agent's
            for (String host : hostAgentsOf(r)) {
                hostAgents.add(seenBy(r, host));
                both.add(seenBy(r, host));
            }
            both.add(seenBy(r, "edge-b"));
        }
        AuditReport hostOnly = offlineReport(hostAgents);
        AuditReport merged = offlineReport(both);
        List<String> expected = hostOnly.verdicts().stream().sorted(Comparator.comparing(Verdict::server)
                .thenComparing(Verdict::remoteSite)).map(VerdictJson::toJson).toList();

        try (Driver d = new Driver(dir).withSites(Flows.SITES_YAML)) {
            for (String host : List.of("wls3", "wls5")) {
                d.agents.pipeInput(host, "{\"agent\":\"" + host + "\",\"iface\":\"ens3\",\"time\":" + T0
                        + ",\"received\":10}");
            }
            both.forEach(d::send);

            assertThat(d.queries().cumulativeVerdicts().stream().map(VerdictJson::toJson).toList())
                    .hasSize(2).isEqualTo(expected);
            assertThat(d.verdicts().stream().map(kv -> kv.value).toList()).hasSize(10).isEqualTo(hostOnly.windows()
                    .stream().filter(v -> v.window().orElseThrow().end() + 10_000 <= LAST).map(VerdictJson::toJson)
                    .toList());
            assertThat(json(d.queries().dbSites())).isEqualTo(json(hostOnly.dbSites()));
        }
        assertThat(merged.verdicts().stream().map(VerdictJson::toJson).toList())
                .isEqualTo(hostOnly.verdicts().stream().map(VerdictJson::toJson).toList());
        assertThat(merged.windows().stream().map(VerdictJson::toJson).toList())
                .isEqualTo(hostOnly.windows().stream().map(VerdictJson::toJson).toList());
        assertThat(json(merged.dbSites())).isEqualTo(json(hostOnly.dbSites()));
    }

    /**
     * Two edge agents see wls3 and no host agent does: the audit's observer of wls3 is the agent of its first
     * record (edge-a, a T3 record), the site comparison's the agent of its first DB record (edge-b), as
     * {@code siteflow audit} keeps them apart; the topology test driver runs db1 and wls3 in one task, where the
     * two once shared one observer entry and the comparison counted edge-a's 3 calls instead of edge-b's 5.
     */
    @Test
    void theSiteComparisonChoosesItsObserverByItsOwnRecordsAsTheOfflineAuditDoes() throws Exception {
        List<FlowRecord> records = List.of(
                seenBy(flow().from("10.2.0.20", 40_000).to("10.1.0.10", 7001).at(T0).bytes(5_000, 5_000).build(),
                        "edge-a"),
                seenBy(flow().from("10.2.0.20", 40_001).to("10.1.0.10", 1521).at(T0 + 1_000).bytes(9_000, 9_000)
                        .rtt(6_500).calls(5, 9_000).build(), "edge-b"),
                seenBy(flow().from("10.2.0.20", 40_002).to("10.1.0.10", 1521).at(T0 + 2_000).bytes(8_000, 8_000)
                        .rtt(6_600).calls(3, 9_500).build(), "edge-a"));
        AuditReport report = offlineReport(records);
        assertThat(report.dbSites().get(0).remote().calls()).isEqualTo(5);

        try (Driver d = new Driver(dir).withSites(Flows.SITES_YAML)) {
            records.forEach(d::send);

            assertThat(json(d.queries().dbSites())).isEqualTo(json(report.dbSites()));
            assertThat(d.queries().cumulativeVerdicts().stream().map(VerdictJson::toJson).toList()).isEqualTo(
                    report.verdicts().stream().sorted(Comparator.comparing(Verdict::server)
                            .thenComparing(Verdict::remoteSite)).map(VerdictJson::toJson).toList());
        }
    }

    /** The host agents of the listed app servers at the ends of {@code r} (wls3: 10.2.0.20, wls5: 10.3.0.30). */
    private static List<String> hostAgentsOf(FlowRecord r) {
        List<String> out = new ArrayList<>();
        if (r.src().equals("10.2.0.20") || r.dst().equals("10.2.0.20")) {
            out.add("wls3");
        }
        if (r.src().equals("10.3.0.30") || r.dst().equals("10.3.0.30")) {
            out.add("wls5");
        }
        return out;
    }

    /** {@code r} as {@code agent} recorded it: same flow, the agent's own record id (through the wire JSON). */
    static FlowRecord seenBy(FlowRecord r, String agent) throws Exception {
        return FlowRecordJson.parse(FlowRecordJson.toJson(r)
                .replace("\"agent\":\"" + r.agent() + "\"", "\"agent\":\"" + agent + "\"")
                .replace("\"id\":\"" + r.id() + "\"", "\"id\":\"" + agent + "-" + r.id() + "\""));
    }

    @Test
    void theLinksViewGivesTheAuditsSitePairRttForTheSameRecords() throws Exception {
        List<FlowRecord> records = mixedRecords();
        AuditReport report = offlineReport(records);

        try (Driver d = new Driver(dir).withSites(Flows.SITES_YAML)) {
            records.forEach(d::send);

            List<LinkView> links = LinkView.of(List.of(), d.queries().sitePairRtts(),
                    SiteDirectory.of(d.queries().rules()));
            assertThat(links).extracting(l -> new SitePairRtt(l.siteA(), l.siteB(), l.rttMicros()))
                    .isEqualTo(report.sitePairs().stream().map(p -> new SitePairRtt(p.siteA(), p.siteB(), p.rtt()))
                            .toList());
            assertThat(report.sitePairs()).extracting(p -> p.siteA() + "-" + p.siteB())
                    .containsExactly("region1-region2", "region1-region3");
            assertThat(report.sitePairs()).allSatisfy(p -> assertThat(p.rtt().samples()).isGreaterThan(10));
            assertThat(links).extracting(LinkView::aboveLimit).containsExactly(false, false);
        }
    }

    /** What {@code siteflow audit} reports for these records. */
    private static AuditReport offlineReport(List<FlowRecord> records) throws Exception {
        OfflineAudit offline = new OfflineAudit(SiteModelLoader.parse("sites.yaml", Flows.SITES_YAML).orThrow(),
                Window.DEFAULT_SIZE_MS);
        records.forEach(offline::accept);
        return offline.report("test", 0, 0);
    }

    private static void out(List<FlowRecord> records, Flows f) {
        records.add(records.size() - 1, f.build()); // before the closing record
    }

    private static String json(List<DbSiteComparison> sites) throws Exception {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            g.writeStartArray();
            for (DbSiteComparison c : sites) {
                DbSiteJson.write(c, g);
            }
            g.writeEndArray();
        }
        return w.toString();
    }

    private static final long LAST = T0 + 3_600_000;

    /**
     * 300 records over 5 minutes from one edge agent: DB, cluster and unknown traffic of both audited servers,
     * some between the two servers (audited by neither), and a last record an hour later that closes the windows.
     */
    private static List<FlowRecord> mixedRecords() {
        Random rnd = new Random(42);
        List<FlowRecord> out = new ArrayList<>();
        String[] servers = {"10.2.0.20", "10.3.0.30"};
        for (int i = 0; i < 300; i++) {
            long t = T0 + i * 1_000L;
            String server = servers[i % 2];
            String peer = i % 17 == 0 ? "10.3.0.30" : "10.1.0.1" + rnd.nextInt(3);
            int port = switch (rnd.nextInt(4)) {
                case 0, 1 -> 1521;
                case 2 -> 7001;
                default -> 9000 + rnd.nextInt(3);
            };
            Flows f = flow().span(t, t + rnd.nextInt(5_000)).bytes(rnd.nextInt(50_000), rnd.nextInt(50_000));
            f = rnd.nextBoolean() ? f.from(server, 40_000 + i).to(peer, port) : f.from(peer, 40_000 + i).to(server, port);
            if (rnd.nextInt(5) == 0) {
                f.rtt(6_000 + rnd.nextInt(1_000));
            }
            if (port == 1521) {
                f.calls(1 + rnd.nextInt(20), 6_500 + rnd.nextInt(20_000));
            }
            out.add(f.build());
        }
        out.add(flow().at(LAST).to("10.1.0.10", 1521).bytes(100, 100).build());
        return out;
    }
}
