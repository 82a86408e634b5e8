package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.FlowRecord;
import io.siteflow.processor.http.ApiServer;
import io.siteflow.processor.query.Cluster;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.OwnersMovingException;
import io.siteflow.processor.query.StoreView;
import io.siteflow.processor.query.StoreWhatIf;
import io.siteflow.processor.query.WhatIfSource;
import io.siteflow.processor.testing.EmptyStoreView;
import io.siteflow.processor.topology.whatif.WhatIfStores;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.verdict.RttHistogram;
import io.siteflow.rules.whatif.ServerTraffic;
import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfJson;
import io.siteflow.rules.whatif.WhatIfReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The what-if stage under {@code TopologyTestDriver}: each server's inputs per day in {@code whatif-servers} (what
 * {@link WhatIf} computes from, aggregated), the site-pair RTTs in {@code whatif-rtts}, one observer per server;
 * {@code /api/whatif} from the stores ({@link StoreWhatIf}) equals {@code siteflow whatif} over the same records;
 * the stores stay within their bounds (flows per peer site, days); a moving owner is a 503 naming the server.
 */
class WhatIfStageTest {
    static final String WLS3 = "10.2.0.20";
    static final long DAY = WhatIfStores.DAY_MS;
    static final HostInfo OTHER = new HostInfo("10.0.0.7", 8080);

    @TempDir
    Path dir;

    /**
     * wls3's DB flow to db1 as its host agent and the edge agent both saw it, its cluster flow within region2, wls5's
     * DB flow (an RTT sample of region1-region3 only), a flow in no site.
     */
    static List<FlowRecord> mix() {
        FlowRecord db = flow().id("w-1").agent("wls3").span(T0 + 1_000, T0 + 11_000).bytes(900_000, 100_000)
                .rtt(6_500).calls(2_000, 9_500).build();
        return List.of(db,
                db.toBuilder().id("edge-w-1").agent("edge-b").build(), // the same flow from the edge agent
                flow().id("w-2").agent("wls3").at(T0 + 2_000).from(WLS3, 40001).to("10.2.0.22", 7001)
                        .bytes(40_000, 10_000).rtt(300).build(),
                flow().id("w-3").agent("wls3").at(T0 + 3_000).from(WLS3, 40002).to("10.1.0.10", 1521)
                        .bytes(5_000, 5_000).rtt(6_400).calls(30, 9_000).build(),
                flow().id("w-4").at(T0 + 4_000).from("10.3.0.30", 41000).to("10.1.0.10", 1521).bytes(700, 0)
                        .rtt(9_000).build(),
                flow().id("w-5").at(T0 + 5_000).from("10.9.9.9", 5555).to("10.8.8.8", 80).bytes(50, 0).build());
    }

    static WhatIfReport offline(List<FlowRecord> records, String server, String site) throws Exception {
        WhatIf w = new WhatIf(SiteModelLoader.parse("sites.yaml", Flows.SITES_YAML).orThrow(), server, site);
        records.forEach(w::accept);
        return w.report();
    }

    static StoreWhatIf whatIf(Driver d, Cluster cluster, InstanceClient client) {
        return new StoreWhatIf(d.queries().local(), cluster, client, d.models);
    }

    @Test
    void keepsEachServersInputsPerDayAndAnswersAsSiteflowWhatIfOnTheSameRecords() throws Exception {
        try (Driver d = new Driver(TopologyConfig.DEFAULTS, dir, Instant.ofEpochMilli(T0))) {
            d.withSites(Flows.SITES_YAML);
            mix().forEach(d::send);
            d.driver.advanceWallClockTime(Duration.ofSeconds(1)); // a commit: the stores hold what the step wrote

            // the inputs, aggregated: wls3's bytes per peer site (the edge agent's copy not added), its flows, span
            KeyValueStore<String, ServerTraffic> servers = d.driver.getKeyValueStore(WhatIfStores.SERVERS);
            assertThat(keys(servers)).containsExactly("10.1.0.10|" + WhatIfStores.dayOf(T0), WLS3 + "|"
                    + WhatIfStores.dayOf(T0), "10.3.0.30|" + WhatIfStores.dayOf(T0));
            ServerTraffic wls3 = servers.get(WLS3 + "|" + WhatIfStores.dayOf(T0));
            assertThat(wls3.bytesByPeerSite()).containsExactly(Map.entry("region1", 1_010_000L),
                    Map.entry("region2", 50_000L));
            assertThat(wls3.keptFlowsByPeerSite()).containsExactly(Map.entry("region1", 2), Map.entry("region2", 1));
            assertThat(wls3.first()).isEqualTo(T0 + 1_000);
            assertThat(wls3.last()).isEqualTo(T0 + 11_000);
            // db1's observer is the edge agent (no host agent of db1), wls3's its host agent: each counted once
            assertThat(servers.get("10.1.0.10|" + WhatIfStores.dayOf(T0)).bytesByPeerSite())
                    .containsExactly(Map.entry("region2", 1_000_000L), Map.entry("region3", 700L));
            KeyValueStore<String, String> observers = d.driver.getKeyValueStore(WhatIfStores.OBSERVERS);
            assertThat(observers.get(WLS3)).isEqualTo("wls3");
            assertThat(observers.get("10.1.0.10")).isEqualTo("edge-b");
            // every record's RTT sample, both observers' copies (as offline)
            KeyValueStore<String, RttHistogram> rtts = d.driver.getKeyValueStore(WhatIfStores.RTTS);
            assertThat(rtts.get("region1|region2|" + WhatIfStores.dayOf(T0)).counts())
                    .containsExactly(Map.entry(6_400L, 1L), Map.entry(6_500L, 2L));
            assertThat(rtts.get("region2|region2|" + WhatIfStores.dayOf(T0)).counts()).containsExactly(Map.entry(300L, 1L));
            assertThat(rtts.get("region1|region3|" + WhatIfStores.dayOf(T0)).counts()).containsExactly(Map.entry(9_000L, 1L));

            // the answer from the stores is siteflow whatif's on the same records, JSON byte for byte
            WhatIfSource streamed = whatIf(d, Cluster.SINGLE, InstanceClient.NONE);
            for (String[] move : List.of(new String[] {"wls3", "region1"}, new String[] {"10.2.0.20", "region3"},
                    new String[] {"db1", "region2"}, new String[] {"wls5", "region1"}, new String[] {"wls1", "region2"})) {
                WhatIfReport expected = offline(mix(), move[0], move[1]);
                assertThat(streamed.whatIf(move[0], move[1])).as(String.join("=", move)).isEqualTo(expected);
                assertThat(WhatIfJson.toJson(streamed.whatIf(move[0], move[1]))).isEqualTo(WhatIfJson.toJson(expected));
            }
            WhatIfReport r = streamed.whatIf("wls3", "region1");
            assertThat(r.crossBytesBefore()).isEqualTo(1_010_000);
            assertThat(r.crossBytesAfter()).isEqualTo(50_000);
            assertThat(r.callsStopPaying()).isEqualTo(2_030);
            assertThat(r.becomeLocalTotal()).isEqualTo(new WhatIfReport.Total(2, 1_010_000));
            assertThat(r.seconds()).isEqualTo(10);
            assertThat(r.rttSavedMicros()).isEqualTo(6_500);
        }
    }

    @Test
    void keepsAtMostSixtyFourFlowsPerPeerSiteAndTheDaysOfTheRetention() throws Exception {
        try (Driver d = new Driver(TopologyConfig.DEFAULTS, dir, Instant.ofEpochMilli(T0 + 10 * DAY))) {
            d.withSites(Flows.SITES_YAML);
            List<FlowRecord> records = new ArrayList<>();
            for (int i = 0; i < 100; i++) { // 100 distinct flows of wls3 to db1, the larger the later
                records.add(flow().id("b-" + i).agent("wls3").at(T0 + i).from(WLS3, 30_000 + i).bytes(1_000 + i, 0)
                        .build());
            }
            records.forEach(d::send);
            d.driver.advanceWallClockTime(Duration.ofSeconds(1));

            KeyValueStore<String, ServerTraffic> servers = d.driver.getKeyValueStore(WhatIfStores.SERVERS);
            ServerTraffic day0 = servers.get(WLS3 + "|" + WhatIfStores.dayOf(T0));
            assertThat(day0.keptFlowsByPeerSite()).containsExactly(Map.entry("region1", ServerTraffic.KEPT_FLOWS));
            assertThat(day0.bytesByPeerSite()).containsExactly(Map.entry("region1", 100 * 1_000L + 99 * 100 / 2));
            WhatIfReport r = whatIf(d, Cluster.SINGLE, InstanceClient.NONE).whatIf("wls3", "region1");
            WhatIfReport exact = offline(records, "wls3", "region1");
            // the bytes are exact, the ten largest flows too (the answer lists them); the count is the estimate
            assertThat(r.becomeLocalTotal().bytes()).isEqualTo(exact.becomeLocalTotal().bytes());
            assertThat(r.becomeLocal()).hasSize(ServerTraffic.KEPT_FLOWS)
                    .isEqualTo(exact.becomeLocal().subList(0, ServerTraffic.KEPT_FLOWS));
            assertThat(exact.becomeLocalTotal().flows()).isEqualTo(100);
            assertThat(r.becomeLocalTotal().flows()).isEqualTo(100); // the estimate of these 100 flows happens to be exact
            assertThat(WhatIfJson.toJson(r)).isEqualTo(WhatIfJson.toJson(exact));

            // one record a day on days 1 to 9: the days more than 7 before the newest (9) are deleted
            for (int day = 1; day <= 9; day++) {
                d.send(flow().id("day-" + day).agent("wls3").at(T0 + day * DAY).from(WLS3, 40_000).bytes(10, 0));
            }
            d.driver.advanceWallClockTime(Duration.ofSeconds(1));
            List<String> expected = new ArrayList<>();
            for (int day = 2; day <= 9; day++) {
                expected.add(WLS3 + "|" + WhatIfStores.dayOf(T0 + day * DAY));
            }
            assertThat(keys(servers)).containsExactlyInAnyOrderElementsOf(expected);
            // a record older than what is kept is not added
            d.send(flow().id("old").agent("wls3").at(T0 + DAY).from(WLS3, 40_000).bytes(10, 0));
            d.driver.advanceWallClockTime(Duration.ofSeconds(1));
            assertThat(keys(servers)).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(whatIf(d, Cluster.SINGLE, InstanceClient.NONE).whatIf("wls3", "region1").becomeLocalTotal())
                    .isEqualTo(new WhatIfReport.Total(1, 80));
        }
    }

    @Test
    void aServerWhoseOwnerIsMovingIsA503NamingItAndALiveOwnerIsAsked() throws Exception {
        try (Driver d = new Driver(TopologyConfig.DEFAULTS, dir, Instant.ofEpochMilli(T0))) {
            d.withSites(Flows.SITES_YAML);
            mix().forEach(d::send);
            d.driver.advanceWallClockTime(Duration.ofSeconds(1));
            WhatIfReport single = whatIf(d, Cluster.SINGLE, InstanceClient.NONE).whatIf("wls3", "region1");

            // no owner during a rebalance: a 503 naming the server, as the other views say it
            String rebalancing = "no instance runs its task now (the instances are rebalancing)";
            WhatIfSource moving = whatIf(d, owner(new Cluster.Moving(rebalancing)), InstanceClient.NONE);
            HttpResponse<String> r = get(d, moving, "/api/whatif?server=wls3&site=region1");
            String reason = "owner of wls3 (10.2.0.20) is moving: " + rebalancing;
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(r.body()).isEqualTo("{\"error\":\"what-if inputs of 1 of 1 servers are temporarily unavailable: "
                    + "their owner is moving\",\"reason\":\"" + reason + "\",\"unavailable\":[{\"server\":\"10.2.0.20\","
                    + "\"name\":\"wls3\",\"reason\":\"" + reason + "\"}]}");
            // the task not running here yet (restoring) is moving too, not an empty answer
            assertThatThrownBy(() -> whatIf(d, owner(new Cluster.Here(1)), InstanceClient.NONE).whatIf("wls3", "region1"))
                    .isInstanceOfSatisfying(OwnersMovingException.class, e -> assertThat(e.reason()).isEqualTo(
                            "owner of wls3 (10.2.0.20) is moving: its task (partition 1) is not running on this instance"
                                    + " yet (restoring its state or rebalancing): no task of partition 1 here"));

            // another instance owns wls3's task (partition 2) and holds the RTTs too: its numbers are the answer
            List<String> asked = new ArrayList<>();
            StoreView local = d.queries().local();
            StoreView other = new EmptyStoreView() {
                @Override
                public Optional<ServerTraffic> whatIfTraffic(String address, int partition) {
                    asked.add("traffic " + address + " " + partition);
                    return local.whatIfTraffic(address, 0);
                }

                @Override
                public io.siteflow.rules.verdict.SitePairRtts whatIfRtts() {
                    asked.add("rtts");
                    return local.whatIfRtts();
                }
            };
            StoreWhatIf remote = whatIf(d, owner(new Cluster.At(OTHER, 2)), host -> other);
            assertThat(remote.whatIf("wls3", "region1")).isEqualTo(single);
            assertThat(asked).containsExactly("traffic 10.2.0.20 2", "rtts");

            // an owner that does not answer is moving, naming it
            StoreView dead = new EmptyStoreView() {
                @Override
                public Optional<ServerTraffic> whatIfTraffic(String address, int partition) {
                    throw new InstanceClient.RemoteQueryException("http://10.0.0.7:8080/internal/store/whatif-traffic: "
                            + "java.net.ConnectException", null);
                }
            };
            assertThatThrownBy(() -> whatIf(d, owner(new Cluster.At(OTHER, 2)), host -> dead).whatIf("wls3", "region1"))
                    .isInstanceOfSatisfying(OwnersMovingException.class, e -> assertThat(e.reason()).isEqualTo(
                            "owner of wls3 (10.2.0.20) is moving: its owner 10.0.0.7:8080 cannot answer: "
                                    + "http://10.0.0.7:8080/internal/store/whatif-traffic: java.net.ConnectException"));
        }
    }

    /** Every key of a store. */
    static <V> List<String> keys(KeyValueStore<String, V> s) {
        List<String> out = new ArrayList<>();
        try (KeyValueIterator<String, V> it = s.all()) {
            it.forEachRemaining((KeyValue<String, V> kv) -> out.add(kv.key));
        }
        return out;
    }

    /** Every what-if key owned as given; the other instance (when {@code owner} names one) holds the RTTs too. */
    static Cluster owner(Cluster.Owner owner) {
        return new Cluster() {
            @Override
            public Owner owner(String server) {
                throw new AssertionError("the what-if asks for the owner in its own store");
            }

            @Override
            public Owner owner(String store, String key) {
                assertThat(store).isEqualTo(WhatIfStores.SERVERS);
                return owner;
            }

            @Override
            public List<HostInfo> others() {
                return List.of();
            }

            @Override
            public List<HostInfo> others(String store) {
                assertThat(store).isEqualTo(WhatIfStores.RTTS);
                return owner instanceof Cluster.At ? List.of(OTHER) : List.of();
            }
        };
    }

    private static HttpResponse<String> get(Driver d, WhatIfSource source, String path) throws Exception {
        try (ApiServer s = new ApiServer(ApiServer.Settings.loopback(0), d.queries(), Optional.empty(), () -> "",
                source).start()) {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(s.url() + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }
}
