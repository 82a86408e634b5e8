package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.processor.query.AgentStatus;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.query.SiteflowQueries;
import io.siteflow.processor.query.StoreView;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.processor.testing.EmptyStoreView;
import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.verdict.PairAggregateJson;
import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.whatif.ServerTraffic;
import io.siteflow.rules.whatif.WhatIfCodec;
import io.siteflow.rules.whatif.WhatIfReport;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictJson;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.errors.InvalidStateStorePartitionException;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Instance B serves its store view on the internal API; instance A's API reads it through HttpInstanceClient. */
class InstanceClientTest {
    static final long NOW = ApiServerTest.NOW;
    static final Optional<String> TOKEN = Optional.of("t0k");
    final StaticQueries fixture = FakeQueries.create(NOW, true);
    final List<ApiServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(ApiServer::close);
    }

    /** The store view of instance B: the fixture's wls4 pair, in the task of partition 1 (the only one it runs). */
    final StoreView storeB = new StoreView() {
        @Override
        public Optional<String> cumulative(String pairKey, int partition) {
            runs(partition);
            return pairKey.equals("10.2.0.21|region1") ? Optional.of("{\"crossBytes\":5000000}") : Optional.empty();
        }

        @Override
        public boolean observerDrops(String server, int partition) {
            runs(partition);
            return server.equals("10.2.0.21");
        }

        private void runs(int partition) {
            if (partition != 1 && partition != ANY_PARTITION) {
                throw new InvalidStateStorePartitionException("the task of partition " + partition + " is restoring");
            }
        }

        @Override
        public List<String> latestWindows() {
            return fixture.latestWindows().stream().filter(v -> v.server().equals("10.2.0.21")).map(VerdictJson::toJson).toList();
        }

        @Override
        public List<String> windows(long fromMs, long toMs) {
            return fixture.windows(fromMs, toMs).stream().map(VerdictJson::toJson).toList();
        }

        @Override
        public List<Alert> alerts(int limit) {
            return fixture.alerts(limit);
        }

        @Override
        public List<Long> baselineStarts() {
            return List.of(1_764_000_000_000L, 1_764_000_060_000L);
        }

        @Override
        public List<TalkerRow> talkers(boolean ports, String category, int limit) {
            return fixture.talkers(ports, category, limit);
        }

        @Override
        public List<io.siteflow.rules.isolation.IsolationEdge> isolationEdges(long fromMs, long toMs) {
            return fromMs == 0 && toMs == NOW ? List.of(ISOLATION_EDGE) : List.of();
        }

        @Override
        public List<io.siteflow.rules.isolation.HostRtt> isolationRtts() {
            return List.of(new io.siteflow.rules.isolation.HostRtt("10.2.0.21", "region1", 12, 6_400));
        }

        @Override
        public Optional<ServerTraffic> whatIfTraffic(String address, int partition) {
            runs(partition);
            return address.equals("10.2.0.21") ? Optional.of(WHATIF_TRAFFIC) : Optional.empty();
        }

        @Override
        public SitePairRtts whatIfRtts() {
            SitePairRtts r = new SitePairRtts();
            r.add(SitePair.of("region1", "region2"), 6_400);
            r.add(SitePair.of("region1", "region2"), 6_600);
            r.add(SitePair.of("region2", "region2"), 300);
            return r;
        }
    };

    /** wls4's what-if inputs: a DB flow to region1 with calls, a cluster flow within region2. */
    static final ServerTraffic WHATIF_TRAFFIC = ServerTraffic.bounded();

    static {
        WHATIF_TRAFFIC.add(new ServerTraffic.Entry(new WhatIfReport.Flow("10.2.0.21", 40000, "10.1.0.10", 1521, "DB", 0),
                "region1", 4_000, 12, 1_764_000_000_123L, 1_764_000_059_000L));
        WHATIF_TRAFFIC.add(new ServerTraffic.Entry(new WhatIfReport.Flow("10.2.0.21", 40001, "10.2.0.20", 7001,
                "CLUSTER", 0), "region2", 500, 0, 1_764_000_001_000L, 1_764_000_002_000L));
    }

    /** An edge with every field set, a nearest allow rule among them. */
    static final io.siteflow.rules.isolation.IsolationEdge ISOLATION_EDGE = new io.siteflow.rules.isolation.IsolationEdge(
            "10.2.0.21", "10.1.0.10", 1521, 6, "wls4", io.siteflow.rules.isolation.Decision.DENIED, "no-t3-to-db", true,
            io.siteflow.rules.model.Category.DB, "t3", List.of("soa"), List.of("db"), "region2", "region1", 4_000, 40, 2,
            1_764_000_000_123L, 1_764_000_059_000L, Optional.of(new io.siteflow.rules.isolation.NearestAllow("app-db",
                    List.of("l7: t3 not in [oracle-tns]"))));

    ApiServer serve(SiteflowQueries q, Optional<StoreView> store) {
        ApiServer s = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, TOKEN, 2000), q, store, () -> "").start();
        servers.add(s);
        return s;
    }

    @Test
    void readsTheOtherInstancesStoresExactly() {
        ApiServer b = serve(fixture, Optional.of(storeB));
        StoreView remote = new HttpInstanceClient(TOKEN).at(new HostInfo("127.0.0.1", b.port()));

        assertThat(remote.cumulative("10.2.0.21|region1", 1)).hasValue("{\"crossBytes\":5000000}");
        assertThat(remote.cumulative("10.2.0.21|region1", StoreView.ANY_PARTITION)).hasValue("{\"crossBytes\":5000000}");
        assertThat(remote.cumulative("10.2.0.20|region1", 1)).isEmpty();
        assertThat(remote.observerDrops("10.2.0.21", 1)).isTrue();
        assertThat(remote.observerDrops("10.2.0.20", StoreView.ANY_PARTITION)).isFalse();
        assertThat(remote.latestWindows()).isEqualTo(storeB.latestWindows()).hasSize(1);
        assertThat(remote.windows(0, NOW)).isEqualTo(storeB.windows(0, NOW)).hasSize(6);
        assertThat(remote.alerts(5)).isEqualTo(storeB.alerts(5)).hasSize(1);
        assertThat(remote.talkers(true, "DB", 10)).isEqualTo(storeB.talkers(true, "DB", 10)).hasSize(1);
        assertThat(remote.baselineStarts()).containsExactly(1_764_000_000_000L, 1_764_000_060_000L);
        assertThat(remote.talkers(false, null, 1)).isEqualTo(storeB.talkers(false, null, 1));
        // the isolation stage's edges and RTT entries, every field as held there (an open period clamped to 1970..9999)
        assertThat(remote.isolationEdges(0, NOW)).containsExactly(ISOLATION_EDGE);
        assertThat(remote.isolationEdges(Long.MIN_VALUE, Long.MAX_VALUE)).isEmpty();
        assertThat(remote.isolationRtts()).containsExactly(new io.siteflow.rules.isolation.HostRtt("10.2.0.21", "region1",
                12, 6_400));
    }

    @Test
    void readsTheAggregatesOfManyServersInOneRequest() throws Exception {
        List<List<StoreView.Ask>> served = new ArrayList<>();
        StoreView counting = new EmptyStoreView() {
            @Override
            public Optional<String> cumulative(String pairKey, int partition) {
                return storeB.cumulative(pairKey, partition);
            }

            @Override
            public boolean observerDrops(String server, int partition) {
                return storeB.observerDrops(server, partition);
            }

            @Override
            public List<Answer> aggregates(List<Ask> asks) {
                served.add(asks);
                return super.aggregates(asks);
            }
        };
        ApiServer b = serve(fixture, Optional.of(counting));
        StoreView remote = new HttpInstanceClient(TOKEN).at(new HostInfo("127.0.0.1", b.port()));
        List<StoreView.Ask> asks = List.of(new StoreView.Ask("10.2.0.21", 1, List.of("10.2.0.21|region1", "10.2.0.21|region3"), true),
                new StoreView.Ask("10.2.0.20", 0, List.of("10.2.0.20|region1"), true),
                new StoreView.Ask("10.2.0.22", 1, List.of("10.2.0.22|region1"), false));

        List<StoreView.Answer> answers = remote.aggregates(asks);

        assertThat(served).containsExactly(asks);
        assertThat(answers).extracting(StoreView.Answer::server).containsExactly("10.2.0.21", "10.2.0.20", "10.2.0.22");
        StoreView.Answer wls4 = answers.get(0);
        assertThat(wls4.unavailable()).isEmpty();
        assertThat(wls4.drops()).isTrue();
        assertThat(wls4.aggregates()).containsOnlyKeys("10.2.0.21|region1");
        assertThat(new String(PairAggregateJson.toBytes(wls4.aggregates().get("10.2.0.21|region1")), StandardCharsets.UTF_8))
                .isEqualTo(new String(PairAggregateJson.toBytes(PairAggregateJson.parse(
                        "{\"crossBytes\":5000000}".getBytes(StandardCharsets.UTF_8))), StandardCharsets.UTF_8));
        assertThat(answers.get(1)).isEqualTo(StoreView.Answer.unavailable("10.2.0.20", "http://127.0.0.1:" + b.port()
                + "/internal/store/aggregates: state stores not queryable yet: the task of partition 0 is restoring"));
        assertThat(answers.get(2)).isEqualTo(new StoreView.Answer("10.2.0.22", java.util.Map.of(), false, Optional.empty()));
    }

    @Test
    void askingForAggregatesWithoutAJsonArrayIsA400() throws Exception {
        ApiServer b = serve(fixture, Optional.of(storeB));
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(b.url() + "/internal/store/aggregates")).header("Authorization", "Bearer t0k")
                .POST(HttpRequest.BodyPublishers.ofString("{\"server\":\"10.2.0.21\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).startsWith("{\"error\":\"aggregates: not a JSON array of asks: Cannot deserialize value of type "
                + "`java.util.ArrayList<io.siteflow.processor.query.StoreView$Ask>` from Object value");
    }

    @Test
    void verdictNumbersSurviveTheTripUnchanged() throws Exception {
        ApiServer b = serve(fixture, Optional.of(storeB));
        String json = new HttpInstanceClient(TOKEN).at(new HostInfo("127.0.0.1", b.port())).latestWindows().get(0);
        Verdict v = VerdictJson.parse(json);
        assertThat(v.dbShare().toPlainString()).isEqualTo("0.8000");
        assertThat(v).isEqualTo(fixture.latestWindows().get(1));
    }

    @Test
    void thePublicApiAnswersWithWhatTheOwningInstanceHolds() throws Exception {
        ApiServer b = serve(fixture, Optional.of(storeB));
        InstanceClient client = new HttpInstanceClient(TOKEN);
        ApiServer a = serve(alertsFrom(client.at(new HostInfo("127.0.0.1", b.port()))), Optional.empty());

        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(a.url() + "/api/alerts"))
                .header("Authorization", "Bearer t0k").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.body()).isEqualTo(ApiJson.write(fixture.alerts(100)));
    }

    @Test
    void anUnreachableInstanceIsA502NamingIt() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) {
            dead = s.getLocalPort();
        }
        ApiServer a = serve(alertsFrom(new HttpInstanceClient(TOKEN).at(new HostInfo("127.0.0.1", dead))), Optional.empty());
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(a.url() + "/api/alerts"))
                .header("Authorization", "Bearer t0k").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(r.body()).startsWith("{\"error\":\"http://127.0.0.1:" + dead + "/internal/store/alerts?limit=100: ");
    }

    @Test
    void readsTheOtherInstancesWhatIfInputsExactly() {
        ApiServer b = serve(fixture, Optional.of(storeB));
        StoreView remote = new HttpInstanceClient(TOKEN).at(new HostInfo("127.0.0.1", b.port()));

        ServerTraffic t = remote.whatIfTraffic("10.2.0.21", 1).orElseThrow();
        assertThat(WhatIfCodec.toBytes(t)).isEqualTo(WhatIfCodec.toBytes(WHATIF_TRAFFIC));
        assertThat(t.bytesByPeerSite()).containsExactly(Map.entry("region1", 4_000L), Map.entry("region2", 500L));
        assertThat(t.first()).isEqualTo(1_764_000_000_123L);
        assertThat(t.last()).isEqualTo(1_764_000_059_000L);
        assertThat(remote.whatIfTraffic("10.2.0.20", StoreView.ANY_PARTITION)).isEmpty();
        assertThat(remote.whatIfRtts().histograms()).containsOnlyKeys(SitePair.of("region1", "region2"),
                SitePair.of("region2", "region2"));
        assertThat(remote.whatIfRtts().get(SitePair.of("region1", "region2")).counts())
                .containsExactly(Map.entry(6_400L, 1L), Map.entry(6_600L, 1L));
        assertThatThrownBy(() -> remote.whatIfTraffic("10.2.0.21", 0))
                .isInstanceOf(InstanceClient.RemoteQueryException.class)
                .hasMessage("http://127.0.0.1:" + b.port() + "/internal/store/whatif-traffic?server=10.2.0.21&partition=0"
                        + ": HTTP 503 {\"error\":\"state stores not queryable yet: the task of partition 0 is restoring\"}");
    }

    @Test
    void aTaskThatDoesNotRunThereIsA503NotAnEmptyAggregate() {
        ApiServer b = serve(fixture, Optional.of(storeB));
        StoreView remote = new HttpInstanceClient(TOKEN).at(new HostInfo("127.0.0.1", b.port()));
        assertThatThrownBy(() -> remote.cumulative("10.2.0.20|region1", 0))
                .isInstanceOf(InstanceClient.RemoteQueryException.class)
                .hasMessage("http://127.0.0.1:" + b.port() + "/internal/store/cumulative?pair=10.2.0.20%7Cregion1&partition=0"
                        + ": HTTP 503 {\"error\":\"state stores not queryable yet: the task of partition 0 is restoring\"}");
        assertThatThrownBy(() -> remote.observerDrops("10.2.0.20", 2))
                .isInstanceOf(InstanceClient.RemoteQueryException.class)
                .hasMessage("http://127.0.0.1:" + b.port() + "/internal/store/drops?server=10.2.0.20&partition=2"
                        + ": HTTP 503 {\"error\":\"state stores not queryable yet: the task of partition 2 is restoring\"}");
    }

    @Test
    void theInternalApiNeedsTheToken() {
        ApiServer b = serve(fixture, Optional.of(storeB));
        StoreView wrongToken = new HttpInstanceClient(Optional.of("nope")).at(new HostInfo("127.0.0.1", b.port()));
        assertThatThrownBy(wrongToken::latestWindows).isInstanceOf(InstanceClient.RemoteQueryException.class)
                .hasMessage("http://127.0.0.1:" + b.port() + "/internal/store/latest: HTTP 401 {\"error\":\"bearer token required\"}");
    }

    /** The fixture, except that alerts come from {@code store}. */
    SiteflowQueries alertsFrom(StoreView store) {
        return new SiteflowQueries() {
            public List<Verdict> cumulativeVerdicts() {
                return fixture.cumulativeVerdicts();
            }

            public List<Verdict> latestWindows() {
                return fixture.latestWindows();
            }

            public List<io.siteflow.rules.verdict.DbSiteComparison> dbSites() {
                return fixture.dbSites();
            }

            public List<Verdict> windows(long fromMs, long toMs) {
                return fixture.windows(fromMs, toMs);
            }

            public List<AgentStatus> agents() {
                return fixture.agents();
            }

            public List<Alert> alerts(int limit) {
                return store.alerts(limit);
            }

            public List<TalkerRow> talkers(boolean ports, String category, int limit) {
                return fixture.talkers(ports, category, limit);
            }

            public io.siteflow.processor.query.AlertSettings alertSettings() {
                return fixture.alertSettings();
            }

            public RulesInfo rules() {
                return fixture.rules();
            }

            public String explain(String flow) {
                return fixture.explain(flow);
            }

            public io.siteflow.rules.verdict.SitePairRtts sitePairRtts() {
                return fixture.sitePairRtts();
            }

            @Override
            public java.util.Optional<io.siteflow.rules.isolation.IsolationInputs> isolation(long fromMs, long toMs) {
                return fixture.isolation(fromMs, toMs);
            }

            public boolean ready() {
                return true;
            }
        };
    }
}
