package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.processor.topology.store.SeenRuns;
import io.siteflow.processor.topology.store.SegmentMarks;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.PairAggregate;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DedupeAndModelChangeTest {
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

    /**
     * A window store that holds nothing gets one mark when the task starts (a wall-clock punctuation), so that it has a
     * segment and a committed offset at the next start (SegmentMarks; ProcessCommandIT restarts a processor); the
     * readers skip it; a store that holds something gets none, and no store gets a second one.
     */
    @Test
    void aWindowStoreThatHoldsNothingGetsOneMarkThatTheReadersSkip() {
        WindowStore<String, String> history = d.driver.getWindowStore(TopologySpec.HISTORY_STORE);
        history.put("10.2.0.20|region1", "{}", T0);

        d.advanceWallClock(java.time.Duration.ofSeconds(1));
        d.advanceWallClock(java.time.Duration.ofSeconds(1));

        WindowStore<String, Long> seen = d.driver.getWindowStore(TopologySpec.DEDUPE_STORE);
        WindowStore<String, String> alerts = d.driver.getWindowStore(TopologySpec.ALERT_STORE);
        assertThat(entries(seen)).containsExactly(SegmentMarks.KEY + "@0=0");
        assertThat(entries(alerts)).containsExactly(SegmentMarks.KEY + "@0=");
        assertThat(entries(history)).containsExactly("10.2.0.20|region1@" + T0 + "={}");
        assertThat(d.queries().alerts(100)).isEmpty();
        history.put("10.2.0.20|region1", null, T0); // deleted: the history reader meets a mark alone
        history.put(SegmentMarks.KEY, "", 0L);
        assertThat(d.queries().windows(0, Long.MAX_VALUE)).isEmpty();
    }

    private static <V> List<String> entries(WindowStore<String, V> store) {
        List<String> out = new java.util.ArrayList<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> out.add(kv.key.key() + "@" + kv.key.window().start() + "=" + kv.value));
        }
        return out;
    }

    @Test
    void countsARecordSentTwiceOnce() {
        FlowRecord r = flow().at(T0).id("run7-42").bytes(1500, 500).build();
        d.send(r);
        d.send(flow().at(T0 + 5_000).bytes(10, 0));
        d.send(r);

        assertThat(d.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(2010);
        assertThat(d.metrics.duplicates()).isEqualTo(1);
    }

    @Test
    void countsARecordOfAnotherIdFormSentTwiceOnce() {
        FlowRecord r = flow().at(T0).id("replay:7f3a").bytes(1500, 500).build();
        d.send(r);
        d.send(flow().at(T0 + 5_000).id("run-007").bytes(10, 0));
        d.send(r);
        d.send(flow().at(T0 + 5_000).id("run-007").bytes(10, 0));

        assertThat(d.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(2010);
        assertThat(d.metrics.duplicates()).isEqualTo(2);
    }

    @Test
    void countsAnAgentRecordSeenByAVersionBeforeSeenRunsOnce() {
        // the state an earlier version left: every id in the window store, its newest time in the meta store
        WindowStore<String, Long> seen = d.driver.getWindowStore(TopologySpec.DEDUPE_STORE);
        seen.put("run7-42", T0, T0);
        KeyValueStore<String, Long> meta = d.driver.getKeyValueStore(TopologySpec.DEDUPE_META_STORE);
        meta.put(DedupeStep.NEWEST, T0);

        d.send(flow().at(T0).id("run7-42").bytes(1500, 500).build());
        d.send(flow().at(T0).id("run7-43").bytes(10, 0).build());
        d.send(flow().at(T0 + 1).id("run7-44").bytes(7, 0).build()); // later than the window store's newest

        assertThat(d.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(17);
        assertThat(d.metrics.duplicates()).isEqualTo(1);
        assertThat(meta.get(DedupeStep.AGENT_IDS_UNTIL)).isEqualTo(T0);
    }

    @Test
    void countsTheSameIdAgainAfterTheDedupeRetention() {
        long later = T0 + TopologyConfig.DEFAULTS.dedupeRetention().toMillis() + 1;
        d.send(flow().at(T0).id("replay:x").bytes(100, 0));
        d.send(flow().at(later).id("replay:x").bytes(100, 0));

        assertThat(d.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(200);
        assertThat(d.metrics.duplicates()).isZero();
    }

    @Test
    void forgetsTheCountersOfARunOnceAllAreOlderThanTheDedupeRetention() {
        long later = T0 + TopologyConfig.DEFAULTS.dedupeRetention().toMillis() + 3_600_000L;
        d.send(flow().at(T0).id("x-1").bytes(100, 0));
        d.send(flow().at(T0 + 1).id("x-1").bytes(100, 0));
        KeyValueStore<String, SeenRuns.Chunk> runs = d.driver.getKeyValueStore(TopologySpec.DEDUPE_RUNS_STORE);
        assertThat(runs.get("x|0")).isNotNull();

        d.send(flow().at(later).id("y-4097").bytes(100, 0)); // the sweep after this record's commit deletes x|0
        assertThat(runs.get("x|0")).isNull();
        assertThat(runs.get("y|1").newest()).isEqualTo(later);
        d.send(flow().at(later).id("x-1").bytes(100, 0));

        assertThat(d.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(300);
        assertThat(d.metrics.duplicates()).isEqualTo(1);
    }

    @Test
    void appliesANewSiteModelFromTheNextRecord() {
        d.send(flow().at(T0).to("10.1.0.10", 7001).bytes(1000, 0));
        d.sites.pipeInput(TopologySpec.SITES_KEY, Flows.SITES_YAML.replace("ports: [1521]", "ports: [1521, 7001]"));
        d.send(flow().at(T0 + 1_000).to("10.1.0.10", 7001).bytes(300, 0));

        PairAggregate agg = d.cumulative("10.2.0.20|region1");
        assertThat(agg.bytes(Category.CLUSTER)).isEqualTo(1000);
        assertThat(agg.bytes(Category.DB)).isEqualTo(300);
        assertThat(d.queries().rules().yaml()).contains("ports: [1521, 7001]");
    }

    @Test
    void keepsTheModelInForceWhenAModelWithErrorsIsPublished() {
        String version = d.queries().rules().version();
        d.sites.pipeInput(TopologySpec.SITES_KEY, "threshold: 2\n");
        d.send(flow().at(T0).bytes(1000, 0));

        assertThat(d.cumulative("10.2.0.20|region1").bytes(Category.DB)).isEqualTo(1000);
        assertThat(d.models.current().orElseThrow().model().version()).isEqualTo(version);
    }
}
