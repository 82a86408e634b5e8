package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.OwnersMovingException;
import io.siteflow.processor.query.SiteflowQueries;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The views of the event stream: each query runs once per tick, and a view whose query fails says why, alone,
 * while the others answer as their endpoints do.
 */
class ApiViewsTest {
    static final long NOW = 1_764_000_000_000L;
    final StaticQueries fixture = FakeQueries.create(NOW, true);
    final ApiViews views = new ApiViews();
    /** The calls to the queries, by method and arguments. */
    final Map<String, Integer> calls = new TreeMap<>();

    @Test
    void eachQueryRunsOncePerTick() {
        views.all(counted(fixture, Map.of()));

        assertThat(calls).isEqualTo(Map.of("agents", 1, "alerts [100]", 1, "cumulativeVerdicts", 1,
                "latestWindows", 1, "rules", 1, "sitePairRtts", 1, "talkers [false, null, 100000]", 1));
    }

    @Test
    void theTalkersEventIsWhatTheTalkersEndpointAnswers() {
        assertThat(views.all(fixture).get("talkers")).isEqualTo(views.talkers(fixture, false, null, 100))
                .startsWith("[{\"local\":");
    }

    @Test
    void theLinksEventCarriesTheSitePairRttTheLinksEndpointAnswers() {
        String links = views.all(fixture).get("links");

        // the 812 samples of wls3 and the 100 of wls4 (FakeQueries.SITE_PAIR_RTTS)
        assertThat(links).isEqualTo(views.links(fixture)).contains("\"samples\":912}");
    }

    @Test
    void aViewThatCannotAnswerSaysWhyWhileTheOthersAnswer() {
        String why = "owner of wls4 (10.2.0.21) is moving: no instance runs its task now (the instances are rebalancing)";
        OwnersMovingException moving = new OwnersMovingException("verdicts", "audited servers",
                List.of(new OwnersMovingException.Unavailable("10.2.0.21", "wls4", why)),
                List.of(fixture.cumulativeVerdicts().get(0)), 2);
        OwnersMovingException rttsMoving = new OwnersMovingException("site-pair RTTs", "audited servers",
                List.of(new OwnersMovingException.Unavailable("10.2.0.21", "wls4", why)), List.of(), 2);
        String down = "http://10.0.0.7:8080/internal/store/alerts?limit=100: java.net.ConnectException";
        SiteflowQueries q = counted(fixture, Map.of("cumulativeVerdicts", moving, "sitePairRtts", rttsMoving,
                "alerts", new InstanceClient.RemoteQueryException(down, null)));

        Map<String, String> all = views.all(q);

        String unavailable = "temporarily unavailable: their owner is moving\",\"reason\":\"" + why
                + "\",\"unavailable\":[{\"server\":\"10.2.0.21\",\"name\":\"wls4\",\"reason\":\"" + why + "\"}]";
        assertThat(all).containsExactly(
                Map.entry("rules", "{\"version\":\"" + FakeQueries.RULES_VERSION + "\"}"),
                Map.entry("verdicts", "{\"status\":503,\"error\":\"verdicts of 1 of 2 audited servers are "
                        + unavailable + ",\"verdicts\":[" + ApiJson.write(fixture.cumulativeVerdicts().get(0)) + "]}"),
                Map.entry("latest", views.verdicts(fixture, true)),
                Map.entry("agents", views.agents(fixture)),
                Map.entry("alerts", "{\"status\":502,\"error\":\"" + down + "\"}"),
                Map.entry("talkers", views.talkers(fixture, false, null, 100)),
                Map.entry("links", "{\"status\":503,\"error\":\"site-pair RTTs of 1 of 2 audited servers are "
                        + unavailable + "}"));
        assertThat(calls).containsEntry("cumulativeVerdicts", 1).containsEntry("sitePairRtts", 1);
    }

    /**
     * The tick's queries are the processor's in everything they answer: its health (DOWN with the reason) as the
     * rest, not an interface default.
     */
    @Test
    void theTicksQueriesAnswerWhatTheProcessorsDo() {
        io.siteflow.processor.query.ProcessorHealth down = io.siteflow.processor.query.ProcessorHealth.down(
                "Kafka Streams is PENDING_ERROR: restarting it in 2 s (restart 2 of 5)");
        SiteflowQueries q = (SiteflowQueries) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SiteflowQueries.class}, (proxy, m, args) -> {
                    if (m.getName().equals("health")) {
                        return down;
                    }
                    try {
                        return m.invoke(fixture, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        TickQueries tick = new TickQueries(q);

        assertThat(tick.health()).isEqualTo(down);
        assertThat(tick.sitePairRtts()).isSameAs(fixture.sitePairRtts());
        assertThat(tick.siteModelProblem()).isEqualTo(fixture.siteModelProblem());
        assertThat(tick.ready()).isEqualTo(fixture.ready());
    }

    /** {@code q}, counting its calls in {@link #calls}; the methods named in {@code failures} throw theirs. */
    SiteflowQueries counted(SiteflowQueries q, Map<String, RuntimeException> failures) {
        return (SiteflowQueries) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SiteflowQueries.class}, (proxy, m, args) -> {
                    calls.merge(m.getName() + (args == null ? "" : " " + Arrays.toString(args)), 1, Integer::sum);
                    if (failures.containsKey(m.getName())) {
                        throw failures.get(m.getName());
                    }
                    try {
                        return m.invoke(q, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
