package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObserverRuleTest {
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
    void countsTheEdgeAgentWhileTheServerHasNoHostAgent() {
        d.send(flow().agent("edge-b").at(T0).bytes(1000, 0));
        d.send(flow().agent("edge-b").at(T0 + 1).bytes(500, 0));

        assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(1500);
    }

    @Test
    void countsOnlyOneEdgeAgentWhenTwoSeeTheSameFlows() {
        d.send(flow().agent("edge-b").at(T0).bytes(1000, 0));
        d.send(flow().agent("edge-a").at(T0).bytes(1000, 0));

        assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(1000);
        assertThat(d.metrics.otherObserver()).isEqualTo(1);
    }

    @Test
    void neverTakesAnotherServersHostAgentAsTheEdgeAgent() {
        d.send(flow().agent("wls5").at(T0).bytes(1000, 0));
        d.send(flow().agent("edge-b").at(T0 + 1).bytes(400, 0));

        assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(400);
        assertThat(d.metrics.otherObserver()).isEqualTo(1);
    }

    @Test
    void switchesToTheHostAgentOnceItsFirstRecordArrives() {
        d.send(flow().agent("edge-b").at(T0).bytes(1000, 0));
        d.send(flow().agent("wls3").at(T0 + 1).bytes(300, 0));
        d.send(flow().agent("edge-b").at(T0 + 2).bytes(300, 0));
        d.send(flow().agent("wls3").at(T0 + 3).bytes(20, 0));

        assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(1320);
        assertThat(d.metrics.otherObserver()).isEqualTo(1);
    }

    @Test
    void ignoresTheEdgeAgentWhenTheHostAgentHasSentAHeartbeat() {
        d.agents.pipeInput("wls3", "{\"agent\":\"wls3\",\"iface\":\"ens3\",\"time\":" + T0 + ",\"received\":10}");
        d.send(flow().agent("edge-b").at(T0).bytes(1000, 0));
        d.send(flow().agent("wls3").at(T0 + 1).bytes(300, 0));

        assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(300);
        assertThat(d.metrics.otherObserver()).isEqualTo(1);
    }

    @Test
    void makesTheWindowInsufficientWhenTheObserverDropsMoreThanATenthOfAPercent() throws Exception {
        d.agents.pipeInput("wls3", "{\"agent\":\"wls3\",\"iface\":\"ens3\",\"time\":" + T0
                + ",\"received\":9989,\"droppedKernel\":6,\"droppedInterface\":5}");
        d.send(flow().agent("wls3").at(T0).bytes(5000, 0));
        d.send(flow().agent("wls3").at(T0 + 70_000).bytes(1, 0));

        var v = io.siteflow.rules.verdict.VerdictJson.parse(d.verdicts().get(0).value);
        assertThat(v.verdict()).isEqualTo(io.siteflow.rules.verdict.Outcome.INSUFFICIENT);
        assertThat(v.reason()).isEqualTo("the observer dropped more than 0.1% of packets");
    }

    @Test
    void makesTheWindowInsufficientWhenTheCollectorLostMoreThanATenthOfAPercentOfItsExportRecords() throws Exception {
        // droppedKernel 0 alone would pass; the collector's own counters say 11 of 10000 records were lost
        d.agents.pipeInput("edge-b", "{\"agent\":\"edge-b\",\"iface\":\"0.0.0.0:2055\",\"time\":" + T0
                + ",\"received\":9989,\"droppedKernel\":0,\"exportDatagrams\":400,\"exportRecords\":9989,"
                + "\"exportRecordsLost\":11}");
        d.send(flow().agent("edge-b").at(T0).bytes(5000, 0));
        d.send(flow().agent("edge-b").at(T0 + 70_000).bytes(1, 0));

        var v = io.siteflow.rules.verdict.VerdictJson.parse(d.verdicts().get(0).value);
        assertThat(v.verdict()).isEqualTo(io.siteflow.rules.verdict.Outcome.INSUFFICIENT);
        assertThat(v.reason()).isEqualTo("the observer dropped more than 0.1% of packets");
    }

    @Test
    void judgesACollectorByItsExportCountersNotByTheMixedUnitsOfDroppedKernel() throws Exception {
        // 5 NetFlow v9 export packets lost of 10005 datagrams is 0.05%; droppedKernel adds them to 1000 records
        d.agents.pipeInput("edge-b", "{\"agent\":\"edge-b\",\"iface\":\"0.0.0.0:2055\",\"time\":" + T0
                + ",\"received\":1000,\"droppedKernel\":5,\"exportDatagrams\":10000,\"exportRecords\":1000,"
                + "\"exportPacketsLost\":5}");
        d.send(flow().agent("edge-b").at(T0).bytes(5000, 0));
        d.send(flow().agent("edge-b").at(T0 + 70_000).bytes(1, 0));

        var v = io.siteflow.rules.verdict.VerdictJson.parse(d.verdicts().get(0).value);
        assertThat(v.verdict()).isEqualTo(io.siteflow.rules.verdict.Outcome.PASS);
    }

    @Test
    void countsTheHostAgentAndComparesTheExportersRecordsOfTheSameTrafficWithoutAddingThem() throws Exception {
        d.send(flow().agent("wls3").at(T0).bytes(3000, 2000));
        d.send(flow().agent("edge-b").at(T0 + 1).bytes(2900, 1900).exported("192.0.2.1", 0, 10));
        d.send(flow().agent("wls3").at(T0 + 70_000).bytes(1000, 0));

        String json = d.verdicts().get(0).value;
        var v = io.siteflow.rules.verdict.VerdictJson.parse(json);
        assertThat(v.crossBytes()).isEqualTo(5000);
        assertThat(v.exporters()).contains(new io.siteflow.rules.verdict.ExporterComparison(4800, 200));
        assertThat(json).endsWith(",\"exporters\":{\"bytes\":4800,\"difference\":200}}");
        assertThat(d.metrics.registry().get("siteflow.processor.exporter.difference.bytes")
                .tags("server", "10.2.0.20", "remote_site", "region1").gauge().value()).isEqualTo(200.0);
        assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(6000);
        assertThat(d.cumulative(PAIR).exporters()).contains(new io.siteflow.rules.verdict.ExporterComparison(4800,
                1200));
        assertThat(d.metrics.otherObserver()).isEqualTo(1);
    }

    @Test
    void twoExportersBehindOneCollectorAreTwoObserversAndOnlyTheFirstCounts() {
        d.send(flow().agent("edge-b").at(T0).bytes(1000, 0).exported("192.0.2.1", 0, 1));
        d.send(flow().agent("edge-b").at(T0 + 1).bytes(990, 0).exported("192.0.2.2", 0, 1));

        assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(1000);
        assertThat(d.cumulative(PAIR).exporters()).contains(new io.siteflow.rules.verdict.ExporterComparison(990, 10));
        assertThat(d.metrics.otherObserver()).isEqualTo(1);
    }
}
