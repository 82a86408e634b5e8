package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.processor.http.ApiJson;
import io.siteflow.processor.http.ApiServer;
import io.siteflow.processor.http.SseReader;
import io.siteflow.processor.query.Cluster;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.OwnersMovingException;
import io.siteflow.processor.query.StoreView;
import io.siteflow.processor.query.StreamsQueries;
import io.siteflow.processor.testing.EmptyStoreView;
import io.siteflow.rules.verdict.Verdict;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys whose owner is moving (no owner during a rebalance, an owner that does not answer, a task still restoring)
 * are answered with a 503 naming them and why, never with the empty aggregate a store without the key gives.
 * The driver is this instance and holds the tasks of partition 0; {@code Cluster} and the other instance are fakes.
 */
class MovingOwnerTest {
    static final String WLS3 = "10.2.0.20";
    static final String WLS5 = "10.3.0.30";
    static final String REBALANCING = "no instance runs its task now (the instances are rebalancing)";
    static final HostInfo OTHER = new HostInfo("10.0.0.7", 8080);

    @TempDir
    Path dir;
    Driver d;
    /** What a single instance answers: the reference for the numbers. */
    List<Verdict> single;
    final List<ApiServer> servers = new ArrayList<>();

    @BeforeEach
    void start() {
        d = new Driver(TopologyConfig.DEFAULTS, dir, java.time.Instant.ofEpochMilli(T0)).withSites(Flows.SITES_YAML);
        d.send(flow().at(T0).bytes(5000, 0));
        d.send(flow().at(T0 + 1000).bytes(700, 0));
        single = d.queries().cumulativeVerdicts();
        assertThat(single).extracting(Verdict::server, Verdict::crossBytes)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(WLS3, 5700L),
                        org.assertj.core.groups.Tuple.tuple(WLS5, 0L));
    }

    @AfterEach
    void stop() {
        servers.forEach(ApiServer::close);
        d.close();
    }

    @Test
    void aServerWithoutOwnerIsA503NamingItWithTheVerdictsOfTheOthers() throws Exception {
        StreamsQueries q = d.queries(cluster(new Cluster.Here(0), new Cluster.Moving(REBALANCING)), InstanceClient.NONE);

        HttpResponse<String> r = get(q, "/api/verdicts");

        String reason = "owner of wls5 (10.3.0.30) is moving: " + REBALANCING;
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(r.body()).isEqualTo("{\"error\":\"verdicts of 1 of 2 audited servers are temporarily unavailable: "
                + "their owner is moving\",\"reason\":\"" + reason + "\",\"unavailable\":[{\"server\":\"10.3.0.30\","
                + "\"name\":\"wls5\",\"reason\":\"" + reason + "\"}],\"verdicts\":[" + ApiJson.write(single.get(0)) + "]}");
    }

    @Test
    void aTaskNotRunningHereYetIsMovingNotAnEmptyAggregate() {
        // the metadata names this instance, but the task of partition 1 is not running here (still restoring)
        StreamsQueries q = d.queries(cluster(new Cluster.Here(1), new Cluster.Here(0)), InstanceClient.NONE);

        assertThatThrownBy(q::cumulativeVerdicts).isInstanceOfSatisfying(OwnersMovingException.class, e -> {
            assertThat(e.unavailable()).containsExactly(new OwnersMovingException.Unavailable(WLS3, "wls3",
                    "owner of wls3 (10.2.0.20) is moving: its task (partition 1) is not running on this instance yet "
                            + "(restoring its state or rebalancing): no task of partition 1 here"));
            assertThat(e.answered()).isEqualTo(List.of(single.get(1)));
            assertThat(e.servers()).isEqualTo(2);
        });
    }

    @Test
    void anOwnerThatCannotAnswerIsMovingNotA502() throws Exception {
        StoreView dead = new FakeRemote(null);
        StreamsQueries q = d.queries(cluster(new Cluster.At(OTHER, 2), new Cluster.At(OTHER, 2)), host -> dead);

        HttpResponse<String> r = get(q, "/api/links");

        String why = "its owner 10.0.0.7:8080 cannot answer: " + FakeRemote.DOWN;
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body()).isEqualTo("{\"error\":\"site-pair RTTs of 2 of 2 audited servers are temporarily "
                + "unavailable: their owner is moving\",\"reason\":\"owner of wls3 (10.2.0.20) is moving: " + why
                + "; owner of wls5 (10.3.0.30) is moving: " + why + "\",\"unavailable\":[{\"server\":\"10.2.0.20\","
                + "\"name\":\"wls3\",\"reason\":\"owner of wls3 (10.2.0.20) is moving: " + why + "\"},{\"server\":"
                + "\"10.3.0.30\",\"name\":\"wls5\",\"reason\":\"owner of wls5 (10.3.0.30) is moving: " + why + "\"}]}");
    }

    @Test
    void aLiveOwnerIsAskedForItsTaskAndItsNumbersAreTheAnswer() throws Exception {
        // wls5's owner is the other instance, which holds the aggregate of the driver in its task of partition 2
        FakeRemote other = new FakeRemote(d.queries().local());
        StreamsQueries q = d.queries(cluster(new Cluster.Here(0), new Cluster.At(OTHER, 2)), host -> {
            assertThat(host).isEqualTo(OTHER);
            return other;
        });

        HttpResponse<String> r = get(q, "/api/verdicts");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(ApiJson.write(single));
        assertThat(other.asked).containsExactly("drops 10.3.0.30 2", "cumulative 10.3.0.30|region1 2");
    }

    @Test
    void aDatabaseWhoseOwnerIsMovingIsA503NamingItNotAStoreError() throws Exception {
        StreamsQueries q = d.queries(cluster(new Cluster.Here(0), new Cluster.Here(0), new Cluster.Moving(REBALANCING)),
                InstanceClient.NONE);

        HttpResponse<String> r = get(q, "/api/dbsites");

        String reason = "owner of db1 (10.1.0.10) is moving: " + REBALANCING;
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(r.body()).isEqualTo("{\"error\":\"DB site comparisons of 1 of 1 databases are temporarily "
                + "unavailable: their owner is moving\",\"reason\":\"" + reason + "\",\"unavailable\":[{\"server\":"
                + "\"10.1.0.10\",\"name\":\"db1\",\"reason\":\"" + reason + "\"}]}");
    }

    @Test
    void dbCallHistogramsOfAMovingOwnerAreA503NotAShorterList() throws Exception {
        StreamsQueries q = d.queries(cluster(new Cluster.Here(0), new Cluster.Moving(REBALANCING)), InstanceClient.NONE);

        HttpResponse<String> r = get(q, "/api/dbcalls");

        String reason = "owner of wls5 (10.3.0.30) is moving: " + REBALANCING;
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body()).isEqualTo("{\"error\":\"DB call histograms of 1 of 2 audited servers are temporarily "
                + "unavailable: their owner is moving\",\"reason\":\"" + reason + "\",\"unavailable\":[{\"server\":"
                + "\"10.3.0.30\",\"name\":\"wls5\",\"reason\":\"" + reason + "\"}]}");
    }

    @Test
    void aMovingOwnerFailsOnlyTheEventsOfTheViewsThatReadIt() throws Exception {
        StreamsQueries q = d.queries(cluster(new Cluster.Here(0), new Cluster.Moving(REBALANCING)), InstanceClient.NONE);
        ApiServer s = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.empty(), 100), q, () -> "").start();
        servers.add(s);

        try (SseReader events = SseReader.open(s.url() + "/api/events")) {
            String reason = "owner of wls5 (10.3.0.30) is moving: " + REBALANCING;
            String unavailable = "temporarily unavailable: their owner is moving\",\"reason\":\"" + reason
                    + "\",\"unavailable\":[{\"server\":\"10.3.0.30\",\"name\":\"wls5\",\"reason\":\"" + reason + "\"}]";
            Map<String, String> first = events.firstOfEach(List.of("rules", "verdicts", "latest", "agents", "alerts",
                    "talkers", "links"));

            assertThat(first).containsEntry("verdicts", "{\"status\":503,\"error\":\"verdicts of 1 of 2 audited "
                    + "servers are " + unavailable + ",\"verdicts\":[" + ApiJson.write(single.get(0)) + "]}");
            assertThat(first).containsEntry("links", "{\"status\":503,\"error\":\"site-pair RTTs of 1 of 2 audited "
                    + "servers are " + unavailable + "}");
            // the views that do not read a moving owner answer as they do on a single instance
            StreamsQueries one = d.queries();
            assertThat(first).containsEntry("rules", "{\"version\":\"" + one.rules().version() + "\"}")
                    .containsEntry("latest", ApiJson.write(one.latestWindows()))
                    .containsEntry("agents", ApiJson.write(one.agents()))
                    .containsEntry("alerts", ApiJson.write(one.alerts(100)))
                    .containsEntry("talkers", ApiJson.write(one.talkers(false, null, 100)));
            assertThat(first.get("talkers")).startsWith("[{\"local\":\"10.2.0.20\"");
        }
    }

    /** wls3 and wls5 owned as given, db1 here. */
    static Cluster cluster(Cluster.Owner wls3, Cluster.Owner wls5) {
        return cluster(wls3, wls5, new Cluster.Here(0));
    }

    /** wls3, wls5 and db1 owned as given. */
    static Cluster cluster(Cluster.Owner wls3, Cluster.Owner wls5, Cluster.Owner db1) {
        return new Cluster() {
            @Override
            public Owner owner(String server) {
                return switch (server) {
                    case WLS3 -> wls3;
                    case WLS5 -> wls5;
                    case "10.1.0.10" -> db1;
                    default -> throw new AssertionError(server);
                };
            }

            @Override
            public List<HostInfo> others() {
                return List.of();
            }
        };
    }

    HttpResponse<String> get(StreamsQueries q, String path) throws Exception {
        ApiServer s = new ApiServer(ApiServer.Settings.loopback(0), q, () -> "").start();
        servers.add(s);
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(s.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The other instance: answers per-pair reads from {@code stores} for the task of partition 2 only (the
     * stores of partition 0 of the driver stand for it), or fails as an unreachable instance when null.
     */
    static final class FakeRemote extends EmptyStoreView {
        static final String DOWN = "http://10.0.0.7:8080/internal/store/aggregates: "
                + "java.net.ConnectException";
        final StoreView stores;
        final List<String> asked = new ArrayList<>();

        FakeRemote(StoreView stores) {
            this.stores = stores;
        }

        @Override
        public Optional<String> cumulative(String pairKey, int partition) {
            asked.add("cumulative " + pairKey + " " + partition);
            return task(partition).cumulative(pairKey, 0);
        }

        @Override
        public boolean observerDrops(String server, int partition) {
            asked.add("drops " + server + " " + partition);
            return task(partition).observerDrops(server, 0);
        }

        private StoreView task(int partition) {
            if (stores == null) {
                throw new InstanceClient.RemoteQueryException(DOWN, null);
            }
            assertThat(partition).isEqualTo(2);
            return stores;
        }
    }
}
