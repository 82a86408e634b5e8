package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.siteflow.processor.query.AgentStatus;
import io.siteflow.processor.query.StreamsQueries;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.rules.verdict.Outcome;
import io.siteflow.rules.verdict.Verdict;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueriesTest {
    @TempDir
    Path dir;
    Driver d;
    StreamsQueries q;

    @BeforeEach
    void start() {
        d = new Driver(TopologyConfig.DEFAULTS, dir, java.time.Instant.ofEpochMilli(T0)).withSites(Flows.SITES_YAML);
        q = d.queries();
    }

    @AfterEach
    void stop() {
        d.close();
    }

    @Test
    void listsEveryAuditedPairCumulativelyEvenWithoutTraffic() {
        d.send(flow().at(T0).bytes(5000, 0));

        List<Verdict> v = q.cumulativeVerdicts();
        assertThat(v).extracting(Verdict::server, Verdict::remoteSite, Verdict::verdict, Verdict::crossBytes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("10.2.0.20", "region1", Outcome.PASS, 5000L),
                        org.assertj.core.groups.Tuple.tuple("10.3.0.30", "region1", Outcome.INSUFFICIENT, 0L));
    }

    @Test
    void answersClosedWindowsByStartAndTheLatestPerPair() {
        d.send(flow().at(T0).bytes(5000, 0));
        d.send(flow().at(T0 + 60_000).bytes(6000, 0));
        d.send(flow().at(T0 + 130_000).bytes(1, 0));

        assertThat(q.windows(T0, T0 + 120_000)).extracting(Verdict::crossBytes).containsExactly(5000L, 6000L);
        assertThat(q.windows(T0 + 60_000, T0 + 60_001)).extracting(Verdict::crossBytes).containsExactly(6000L);
        assertThat(q.windows(T0 + 1, T0 + 60_000)).isEmpty();
        assertThat(q.latestWindows()).extracting(Verdict::crossBytes).containsExactly(6000L);
    }

    @Test
    void reportsAgentsFromTheirLastHeartbeat() {
        d.agents.pipeInput("wls3", "{\"agent\":\"wls3\",\"iface\":\"ens3\",\"time\":" + (T0 - 1_000)
                + ",\"received\":100,\"droppedKernel\":1,\"droppedInterface\":2,\"decodeErrors\":3,"
                + "\"recordsSent\":9,\"spooled\":4,\"dropped\":5}");
        d.agents.pipeInput("edge-b", "{\"agent\":\"edge-b\",\"iface\":\"ens4\",\"time\":" + (T0 - 60_000) + "}");

        assertThat(q.agents()).containsExactly(
                new AgentStatus("edge-b", "ens4", T0 - 60_000, 0, 0, 0, 0, 0, 0, true, null),
                new AgentStatus("wls3", "ens3", T0 - 1_000, 100, 1, 2, 3, 4, 5, false, null));
    }

    @Test
    void explainsAFlowWithTheModelInForce() {
        assertThat(q.explain("tcp 10.2.0.20:40112 -> 10.1.0.10:1521")).endsWith("result: DB by rule oracle-ports\n");
        assertThatThrownBy(() -> q.explain("tcp 10.2.0.20:40112 10.1.0.10:1521"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected \"PROTO SRC:PORT -> DST:PORT [l7=NAME]\", found \"tcp 10.2.0.20:40112 10.1.0.10:1521\"");
        assertThat(q.rules().yaml()).isEqualTo(Flows.SITES_YAML);
        assertThat(q.rules().version()).startsWith("sha256:");
    }

    @Test
    void refusesAMalformedFlowAlsoWithoutAModel() {
        try (Driver bare = new Driver(dir.resolve("no-model"))) {
            StreamsQueries none = bare.queries();

            assertThat(none.explain("tcp 10.2.0.20:40112 -> 10.1.0.10:1521")).isEqualTo("no site model in force\n");
            assertThatThrownBy(() -> none.explain("nonsense")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("expected \"PROTO SRC:PORT -> DST:PORT [l7=NAME]\", found \"nonsense\"");
        }
    }

    @Test
    void ranksTalkersByTheirTenSecondRate() {
        d.send(flow().span(T0, T0 + 9_999).bytes(10_000, 20_000));
        d.send(flow().span(T0 + 9_000, T0 + 9_999).to("10.1.0.11", 7001).bytes(50_000, 0));

        List<TalkerRow> hosts = q.talkers(false, null, 10);
        assertThat(hosts).extracting(TalkerRow::remote, TalkerRow::out10s, TalkerRow::in10s, TalkerRow::outTotal,
                TalkerRow::category).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("10.1.0.11", 5000.0, 0.0, 50_000L, "CLUSTER"),
                        org.assertj.core.groups.Tuple.tuple("10.1.0.10", 1000.0, 2000.0, 10_000L, "DB"));
        assertThat(q.talkers(true, "DB", 10)).extracting(TalkerRow::localPort, TalkerRow::remotePort,
                TalkerRow::out2s, TalkerRow::outPeak).containsExactly(org.assertj.core.groups.Tuple.tuple(0, 1521,
                1000.0, 1000.0));
    }

    @Test
    void showsAHostPairsBytesPerCategoryNeverOneLabelOverAMixedSum() {
        d.send(flow().span(T0, T0 + 9_999).to("10.1.0.11", 1521).bytes(40_000, 4_000));
        d.send(flow().span(T0, T0 + 9_999).to("10.1.0.11", 7001).bytes(30_000, 3_000));
        d.send(flow().span(T0, T0 + 9_999).from("10.2.0.20", 40001).to("10.1.0.11", 7001).bytes(5_000, 500));
        d.send(flow().span(T0, T0 + 9_999).to("10.1.0.11", 5201).bytes(20_000, 2_000));

        assertThat(q.talkers(false, null, 10)).extracting(TalkerRow::remote, TalkerRow::category,
                TalkerRow::outTotal, TalkerRow::inTotal, TalkerRow::out10s).containsExactly(
                tuple("10.1.0.11", "DB", 40_000L, 4_000L, 4_000.0),
                tuple("10.1.0.11", "CLUSTER", 35_000L, 3_500L, 3_500.0),
                tuple("10.1.0.11", "UNKNOWN", 20_000L, 2_000L, 2_000.0));
        assertThat(q.talkers(false, "CLUSTER", 10)).extracting(TalkerRow::category, TalkerRow::outTotal)
                .containsExactly(tuple("CLUSTER", 35_000L));
    }

    @Test
    void spreadsARecordsBytesOverItsTimeSoALongFlowShowsInEveryColumn() {
        d.send(flow().span(T0, T0 + 9_999).bytes(100_000, 10_000));

        TalkerRow r = q.talkers(false, null, 1).get(0);
        assertThat(new double[] {r.out2s(), r.out10s(), r.out40s(), r.in2s(), r.in10s(), r.in40s()})
                .containsExactly(10_000.0, 10_000.0, 2_500.0, 1_000.0, 1_000.0, 250.0);
        assertThat(r.ageMs()).isZero();
    }

    @Test
    void ratesHoldForTheInterimPeriodThenFallToZeroWhenRecordsStop() {
        d.send(flow().span(T0, T0 + 9_999).bytes(100_000, 0));

        d.advanceWallClock(Duration.ofSeconds(10));
        assertThat(q.talkers(false, null, 1)).extracting(TalkerRow::out2s, TalkerRow::out10s, TalkerRow::ageMs)
                .containsExactly(tuple(10_000.0, 10_000.0, 10_000L));
        d.advanceWallClock(Duration.ofSeconds(5));
        assertThat(q.talkers(false, null, 1)).extracting(TalkerRow::out2s, TalkerRow::out10s, TalkerRow::out40s,
                TalkerRow::ageMs).containsExactly(tuple(0.0, 5_000.0, 2_500.0, 15_000L));
        d.advanceWallClock(Duration.ofSeconds(35));
        assertThat(q.talkers(false, null, 1)).extracting(TalkerRow::out2s, TalkerRow::out10s, TalkerRow::out40s,
                TalkerRow::outTotal, TalkerRow::ageMs).containsExactly(tuple(0.0, 0.0, 0.0, 100_000L, 50_000L));
    }

    @Test
    void aRecordArrivingAgainMakesTheRowFreshAndMovesTheEndToItsTime() {
        d.send(flow().span(T0, T0 + 9_999).bytes(100_000, 0));
        d.advanceWallClock(Duration.ofSeconds(60));
        d.send(flow().span(T0 + 60_000, T0 + 60_999).bytes(3_000, 0));

        assertThat(q.talkers(false, null, 1)).extracting(TalkerRow::out2s, TalkerRow::out40s, TalkerRow::ageMs)
                .containsExactly(tuple(1_500.0, 75.0, 0L));
    }
}
