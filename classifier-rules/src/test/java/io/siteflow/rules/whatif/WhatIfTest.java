package io.siteflow.rules.whatif;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.CallHistogram;
import io.siteflow.model.FlowRecord;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Moving wls3 from region2 to region1: bytes, flows and DB calls that change side, links and fibre bounds. */
class WhatIfTest {
    private static final long T0 = 1_764_000_000_000L;
    private static final String YAML = """
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.2.0.20, name: wls3, role: app-server }
              - { address: 10.2.0.21, name: wls4, role: app-server }
            """;

    private static FlowRecord tcp(String src, String dst, int port, long bytes, Long rtt, long calls) {
        CallHistogram h = calls == 0 ? CallHistogram.EMPTY
                : CallHistogram.of(Map.of(CallHistogram.bucketOf(9_500), calls));
        return FlowRecord.builder().id("r-" + src + dst + port).agent("a").iface("f").time(T0, T0 + 10_000)
                .endpoints(6, src, 40000, dst, port).forward(bytes, 1, bytes, 0x18).reverse(bytes, 1, bytes, 0x18)
                .rttMicros(rtt).db(calls, calls * 9_500, h).build();
    }

    @Test
    void movingTheServerToTheDatabasesSiteMakesItsDbCallsLocalAndItsClusterTrafficRemote() throws Exception {
        SiteModel model = SiteModelLoader.parse("sites.yaml", YAML).orThrow();
        WhatIf w = new WhatIf(model, "wls3", "region1");
        for (FlowRecord r : List.of(tcp("10.2.0.20", "10.1.0.10", 1521, 900_000, 6_500L, 2_000),
                tcp("10.2.0.20", "10.2.0.21", 7001, 50_000, 300L, 0),
                tcp("10.2.0.21", "10.1.0.10", 1521, 1_000, 12_000L, 0))) {
            w.accept(r);
        }

        WhatIfReport r = w.report();

        assertThat(r.crossBytesBefore()).isEqualTo(1_800_000);
        assertThat(r.crossBytesAfter()).isEqualTo(100_000);
        assertThat(r.becomeLocal()).containsExactly(
                new WhatIfReport.Flow("10.2.0.20", 40000, "10.1.0.10", 1521, "DB", 1_800_000L));
        assertThat(r.becomeRemote()).containsExactly(
                new WhatIfReport.Flow("10.2.0.20", 40000, "10.2.0.21", 7001, "CLUSTER", 100_000L));
        assertThat(r.callsStopPaying()).isEqualTo(2_000);
        assertThat(r.callsStartPaying()).isZero();
        assertThat(r.seconds()).isEqualTo(10);
        assertThat(r.rttSavedMicros()).isEqualTo(6_500);
        assertThat(r.microsSavedPerSecond()).isEqualTo(1_300_000);
        assertThat(r.links()).containsExactly(new WhatIfReport.Link("region1", "region2", 6_500, 650, false),
                new WhatIfReport.Link("region2", "region2", 300, 30, false));
        assertThat(WhatIfText.render(r)).contains("    10.2.0.20:40000 -> 10.1.0.10:1521 DB  1800000 bytes\n",
                "  region1 <-> region2: 6.500 ms, at most 650 km\n",
                "  DB calls: 2000 would stop and 0 would start paying 6.500 ms of RTT (over 10 s)\n",
                "  time per second of work: 1300.000 ms saved\n");
    }

    @Test
    void aFlowSeenByTheHostAgentAndTheEdgeAgentCountsOnce() throws Exception {
        SiteModel model = SiteModelLoader.parse("sites.yaml", YAML).orThrow();
        List<FlowRecord> flows = List.of(tcp("10.2.0.20", "10.1.0.10", 1521, 900_000, 6_500L, 2_000),
                tcp("10.2.0.20", "10.2.0.21", 7001, 50_000, 300L, 0));
        WhatIf hostOnly = new WhatIf(model, "wls3", "region1");
        WhatIf twoObservers = new WhatIf(model, "wls3", "region1");
        for (FlowRecord r : flows) {
            hostOnly.accept(seenBy(r, "wls3"));
            twoObservers.accept(seenBy(r, "wls3"));
            twoObservers.accept(seenBy(r, "edge-b"));
            twoObservers.accept(seenBy(r, "wls4")); // wls4's host agent: never wls3's observer
        }

        WhatIfReport r = twoObservers.report();

        assertThat(r).isEqualTo(hostOnly.report());
        assertThat(r.crossBytesBefore()).isEqualTo(1_800_000);
        assertThat(r.crossBytesAfter()).isEqualTo(100_000);
        assertThat(r.callsStopPaying()).isEqualTo(2_000);
    }

    private static FlowRecord seenBy(FlowRecord r, String agent) throws Exception {
        return io.siteflow.model.FlowRecordJson.parse(io.siteflow.model.FlowRecordJson.toJson(r)
                .replace("\"agent\":\"a\"", "\"agent\":\"" + agent + "\"")
                .replace("\"id\":\"" + r.id() + "\"", "\"id\":\"" + agent + "-" + r.id() + "\""));
    }

    @Test
    void writesTheReportAsOneJsonLineFieldByField() throws Exception {
        SiteModel model = SiteModelLoader.parse("sites.yaml", YAML).orThrow();
        WhatIf w = new WhatIf(model, "10.2.0.20", "region1");
        w.accept(tcp("10.2.0.20", "10.1.0.10", 1521, 900_000, 6_500L, 2_000));
        w.accept(tcp("10.2.0.20", "10.2.0.21", 7001, 50_000, 300L, 0));
        w.accept(tcp("10.2.0.20", "10.2.0.21", 7002, 50_000, null, 0));
        w.accept(tcp("10.2.0.21", "10.1.0.10", 1521, 1_000, 12_000L, 0));

        assertThat(WhatIfJson.toJson(w.report())).isEqualTo("{\"server\":\"wls3\",\"address\":\"10.2.0.20\","
                + "\"fromSite\":\"region2\",\"toSite\":\"region1\",\"crossBytes\":{\"before\":1800000,\"after\":200000},"
                + "\"becomeLocal\":{\"flows\":1,\"bytes\":1800000,\"largest\":[{\"src\":\"10.2.0.20\",\"srcPort\":40000,"
                + "\"dst\":\"10.1.0.10\",\"dstPort\":1521,\"category\":\"DB\",\"bytes\":1800000}]},"
                + "\"becomeRemote\":{\"flows\":2,\"bytes\":200000,\"largest\":["
                + "{\"src\":\"10.2.0.20\",\"srcPort\":40000,\"dst\":\"10.2.0.21\",\"dstPort\":7001,\"category\":\"CLUSTER\","
                + "\"bytes\":100000},"
                + "{\"src\":\"10.2.0.20\",\"srcPort\":40000,\"dst\":\"10.2.0.21\",\"dstPort\":7002,\"category\":\"CLUSTER\","
                + "\"bytes\":100000}]},"
                + "\"dbCalls\":{\"stopPaying\":2000,\"startPaying\":0,\"seconds\":10,\"rttSavedMicros\":6500,"
                + "\"microsSavedPerSecond\":1300000},\"limitMicros\":10000,"
                + "\"links\":[{\"siteA\":\"region1\",\"siteB\":\"region2\",\"rttP50Micros\":6500,\"fibreKmAtMost\":650,"
                + "\"aboveLimit\":false},{\"siteA\":\"region2\",\"siteB\":\"region2\",\"rttP50Micros\":300,"
                + "\"fibreKmAtMost\":30,\"aboveLimit\":false}]}");
    }

    @Test
    void listsTheTenLargestFlowsInJsonAndCountsThemAll() throws Exception {
        SiteModel model = SiteModelLoader.parse("sites.yaml", YAML).orThrow();
        WhatIf w = new WhatIf(model, "wls3", "region1");
        for (int port = 7001; port <= 7012; port++) {
            w.accept(tcp("10.2.0.20", "10.2.0.21", port, port, null, 0));
        }

        String json = WhatIfJson.toJson(w.report());

        assertThat(json).contains("\"becomeRemote\":{\"flows\":12,\"bytes\":" + 2 * (7001 + 7012) * 6 + ",")
                .contains("\"dstPort\":7012,").contains("\"dstPort\":7003,").doesNotContain("\"dstPort\":7002,");
        assertThat(WhatIfText.render(w.report())).contains("  12 flows would become cross-site:\n",
                "    10.2.0.20:40000 -> 10.2.0.21:7003 UNKNOWN  14006 bytes\n").doesNotContain(":7002 ");
    }

    /** wls3 moved to region1 with one DB flow of RTT {@code rtt}, under a model starting with {@code top}. */
    private static WhatIfReport movingWls3WithOneDbFlow(String top, long rtt) throws Exception {
        WhatIf w = new WhatIf(SiteModelLoader.parse("sites.yaml", top + YAML).orThrow(), "wls3", "region1");
        w.accept(tcp("10.2.0.20", "10.1.0.10", 1521, 900_000, rtt, 2_000));
        return w.report();
    }

    @Test
    void flagsALinkAboveTheSiteModelsStricterLimitAndNamesIt() throws Exception {
        WhatIfReport r = movingWls3WithOneDbFlow("rttLimitMs: 5\n", 6_500L);

        assertThat(r.links()).containsExactly(new WhatIfReport.Link("region1", "region2", 6_500, 650, true));
        assertThat(WhatIfJson.toJson(r)).endsWith("\"limitMicros\":5000,\"limitSource\":\"site-model\","
                + "\"links\":[{\"siteA\":\"region1\",\"siteB\":\"region2\",\"rttP50Micros\":6500,"
                + "\"fibreKmAtMost\":650,\"aboveLimit\":true}]}");
        assertThat(WhatIfText.render(r))
                .endsWith("  region1 <-> region2: 6.500 ms, at most 650 km  ABOVE the site model's 5 ms limit\n");
    }

    @Test
    void namesOraclesLimitWhenTheModelsIsLooser() throws Exception {
        WhatIfReport r = movingWls3WithOneDbFlow("rttLimitMs: 12\n", 11_000L);

        assertThat(WhatIfJson.toJson(r)).contains("\"limitMicros\":10000,\"limitSource\":\"oracle\",")
                .endsWith("\"aboveLimit\":true}]}");
        assertThat(WhatIfText.render(r))
                .endsWith("  region1 <-> region2: 11.000 ms, at most 1100 km  ABOVE the 10 ms support limit\n");
    }

    @Test
    void bracketsIpv6AddressesInTheFlowText() {
        assertThat(new WhatIfReport.Flow("fd00:2::20", 40000, "fd00:1::10", 1521, "DB", 5).text())
                .isEqualTo("[fd00:2::20]:40000 -> [fd00:1::10]:1521 DB");
    }

    @Test
    void namesAServerOrSiteTheModelDoesNotHave() throws Exception {
        SiteModel model = SiteModelLoader.parse("sites.yaml", YAML).orThrow();

        assertThatThrownBy(() -> new WhatIf(model, "wls9", "region1")).isInstanceOf(WhatIf.UnknownName.class)
                .hasMessage("--move wls9=region1: no host wls9 in the site model")
                .satisfies(e -> assertThat(((WhatIf.UnknownName) e).parameter()).isEqualTo("server"));
        assertThatThrownBy(() -> new WhatIf(model, "wls3", "mars")).isInstanceOf(WhatIf.UnknownName.class)
                .hasMessage("--move wls3=mars: no site mars in the site model")
                .satisfies(e -> assertThat(((WhatIf.UnknownName) e).parameter()).isEqualTo("site"));
    }
}
