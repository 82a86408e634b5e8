package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.processor.query.AgentStatus;
import io.siteflow.processor.query.Alert;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.rules.verdict.Verdict;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two instances on loopback: A owns wls3, B owns wls4; A's API answers for both by asking B. */
class InstanceRoutingTest {
    static final long NOW = ApiServerTest.NOW;
    final HttpClient http = HttpClient.newHttpClient();
    final List<ApiServer> servers = new ArrayList<>();

    @AfterEach
    void stop() {
        servers.forEach(ApiServer::close);
    }

    /** Keeps only the fixture rows of one server. */
    static StaticQueries owning(String server, Optional<String> token) {
        StaticQueries q = FakeQueries.create(NOW, true);
        q.update(s -> new StaticQueries.Snapshot(
                s.cumulative().stream().filter(v -> v.server().equals(server)).toList(),
                s.history().stream().filter(v -> v.server().equals(server)).toList(),
                s.agents().stream().filter(a -> a.agent().equals(server.equals("10.2.0.20") ? "wls3" : "edge-r1")).toList(),
                s.alerts().stream().filter(a -> a.key().startsWith(server)).toList(),
                s.talkers().stream().filter(t -> t.local().equals(server)).toList(),
                s.portPairs().stream().filter(t -> t.local().equals(server)).toList(), s.rules(), true));
        return q;
    }

    ApiServer serve(ApiServer.Settings settings, StaticQueries local, List<Endpoint> peers, Optional<String> token) {
        InstanceRouting cluster = new InstanceRouting(local, () -> peers, new HttpInstanceClient(token));
        ApiServer s = new ApiServer(settings, cluster, local, () -> "").start();
        servers.add(s);
        return s;
    }

    String get(ApiServer s, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(s.url() + path))
                .header("Authorization", "Bearer t0k").build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    @Test
    void answersForTheWholeClusterByAskingTheOwningInstance() throws Exception {
        Optional<String> token = Optional.of("t0k");
        ApiServer.Settings settings = new ApiServer.Settings("127.0.0.1", 0, token, 2000);
        ApiServer b = serve(settings, owning("10.2.0.21", token), List.of(), token);
        ApiServer a = serve(settings, owning("10.2.0.20", token), List.of(new Endpoint("127.0.0.1", b.port())), token);
        StaticQueries both = FakeQueries.create(NOW, true);

        assertThat(get(a, "/api/verdicts")).isEqualTo("200 " + ApiJson.write(both.cumulativeVerdicts()));
        assertThat(get(a, "/api/verdicts?window=latest")).isEqualTo("200 " + ApiJson.write(both.latestWindows()));
        assertThat(get(a, "/api/windows?from=0&to=" + NOW)).isEqualTo("200 " + ApiJson.write(both.windows(0, NOW)));
        assertThat(get(a, "/api/agents")).isEqualTo("200 " + ApiJson.write(both.agents()));
        assertThat(get(a, "/api/alerts")).isEqualTo("200 " + ApiJson.write(both.alerts(100)));
        assertThat(get(a, "/api/talkers")).isEqualTo("200 " + ApiJson.write(both.talkers(false, null, 100)));
        assertThat(get(a, "/api/verdicts?scope=local")).contains("10.2.0.20").doesNotContain("10.2.0.21");
        assertThat(get(b, "/api/verdicts?scope=local")).contains("10.2.0.21").doesNotContain("10.2.0.20");
    }

    @Test
    void theRemoteViewReadsBackWhatTheOtherInstanceHolds() {
        Optional<String> none = Optional.empty();
        StaticQueries q = FakeQueries.create(NOW, true);
        ApiServer b = serve(ApiServer.Settings.loopback(0), q, List.of(), none);
        var remote = new HttpInstanceClient(none).at(new Endpoint("127.0.0.1", b.port()));

        assertThat(remote.cumulativeVerdicts()).isEqualTo(q.cumulativeVerdicts());
        assertThat(remote.windows(0, NOW)).isEqualTo(q.windows(0, NOW));
        List<AgentStatus> agents = remote.agents();
        assertThat(agents).isEqualTo(q.agents());
        List<Alert> alerts = remote.alerts(10);
        assertThat(alerts).isEqualTo(q.alerts(10));
        List<TalkerRow> talkers = remote.talkers(true, "db", 10);
        assertThat(talkers).isEqualTo(q.talkers(true, "DB", 10));
        assertThat(remote.rules()).isEqualTo(q.rules());
        assertThat(remote.explain("tcp 1.2.3.4:1 -> 5.6.7.8:2")).isEqualTo(q.explain("tcp 1.2.3.4:1 -> 5.6.7.8:2"));
        assertThat(remote.ready()).isTrue();
        List<Verdict> latest = remote.latestWindows();
        assertThat(latest).isEqualTo(q.latestWindows());
    }

    @Test
    void anUnreachableInstanceIsA502NamingIt() throws Exception {
        int deadPort;
        try (ServerSocket s = new ServerSocket(0)) {
            deadPort = s.getLocalPort();
        }
        ApiServer a = serve(ApiServer.Settings.loopback(0), owning("10.2.0.20", Optional.empty()),
                List.of(new Endpoint("127.0.0.1", deadPort)), Optional.empty());
        String r = get(a, "/api/agents");
        assertThat(r).startsWith("502 {\"error\":\"http://127.0.0.1:" + deadPort + "/api/agents?scope=local: ");
    }
}
