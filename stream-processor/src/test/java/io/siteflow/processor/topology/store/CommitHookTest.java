package io.siteflow.processor.topology.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.common.utils.internals.LogContext;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.internals.ProcessorStateManager;
import org.apache.kafka.streams.processor.internals.StateDirectory;
import org.apache.kafka.streams.processor.internals.Task;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.internals.CachedStateStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the Kafka Streams behaviour {@link CommitHook} relies on, against the real Kafka Streams classes (4.4), so
 * that an upgrade that changes it fails here rather than silently losing state:
 * <ol>
 *   <li>a task preparing a commit flushes the caches of its stores ({@code StreamTask.prepareCommit -> flush ->
 *       ProcessorStateManager.flushCache -> CachedStateStore.flushCache}), after the records of the commit were
 *       processed, and what the hook writes then to an uncached changelogged store goes out with that commit;</li>
 *   <li>the state manager runs {@code flushCache} of every registered store that is a {@code CachedStateStore};</li>
 *   <li>recycling a task's state ({@code ProcessorStateManager.recycle}) runs {@code clearCache}, the discard.</li>
 * </ol>
 */
class CommitHookTest {
    static final String HOOK = "hook";
    static final String VALUES = "values";

    @TempDir
    Path stateDir;

    /** Keeps the values of its records in memory and writes them to its store when the hook says the task commits. */
    static final class Deferred implements Processor<String, String, Void, Void> {
        final List<String> events;
        final Map<String, String> pending = new java.util.LinkedHashMap<>();
        KeyValueStore<String, String> store;

        Deferred(List<String> events) {
            this.events = events;
        }

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(VALUES);
            CommitHook hook = context.getStateStore(HOOK);
            hook.onCommit(() -> {
                events.add("flush " + pending.keySet());
                pending.forEach(store::put);
                pending.clear();
            }, () -> events.add("discard"));
        }

        @Override
        public void process(Record<String, String> r) {
            events.add("process " + r.key());
            pending.put(r.key(), r.value());
        }
    }

    /** @param transactional {@code enable.transactional.statestores}, siteflow's default since issue 13 */
    private Properties props(boolean transactional) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "hook-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, String.valueOf(transactional));
        return p;
    }

    @ParameterizedTest(name = "transactional stores {0}")
    @ValueSource(booleans = {false, true})
    void aTaskThatCommitsFlushesTheHookAfterItsRecordsAndSendsWhatTheHookWroteWithTheCommit(boolean transactional) {
        List<String> events = new ArrayList<>();
        Topology t = new Topology();
        t.addSource("in", new StringDeserializer(), new StringDeserializer(), "input");
        t.addProcessor("deferred", () -> new Deferred(events), "in");
        t.addStateStore(CommitHook.builder(HOOK), "deferred");
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(VALUES), Serdes.String(),
                Serdes.String()).withCachingDisabled(), "deferred");
        try (TopologyTestDriver d = new TopologyTestDriver(t, props(transactional))) {
            TestInputTopic<String, String> in = d.createInputTopic("input", new StringSerializer(),
                    new StringSerializer());

            in.pipeInput("a", "1");

            assertThat(events).containsExactly("process a", "flush [a]");
            KeyValueStore<String, String> values = d.getKeyValueStore(VALUES);
            assertThat(values.get("a")).isEqualTo("1");
            assertThat(d.createOutputTopic("hook-test-values-changelog", new StringDeserializer(),
                    new StringDeserializer()).readKeyValuesToMap()).isEqualTo(Map.of("a", "1"));
        }
    }

    @ParameterizedTest(name = "transactional stores {0}")
    @ValueSource(booleans = {false, true})
    void theStateManagerFlushesAndOnRecycleClearsEveryCachedStateStore(boolean transactional) throws Exception {
        List<String> events = new ArrayList<>();
        CommitHook hook = CommitHook.builder(HOOK).build();
        hook.onCommit(() -> events.add("flush"), () -> events.add("discard"));
        assertThat(hook).isInstanceOf(CachedStateStore.class);
        StreamsConfig config = new StreamsConfig(props(transactional));
        StateDirectory dir = new StateDirectory(config, Time.SYSTEM, false, false);
        ProcessorStateManager m = new ProcessorStateManager(new TaskId(0, 0), Task.TaskType.ACTIVE, true, false,
                new LogContext(), dir, Time.SYSTEM, Map.of(), List.<TopicPartition>of());
        m.registerStore(hook, (k, v) -> { }, null);

        m.flushCache();
        // package-private in Kafka Streams; StreamTask and StandbyTask call it from prepareRecycle
        Method recycle = ProcessorStateManager.class.getDeclaredMethod("recycle");
        recycle.setAccessible(true);
        recycle.invoke(m);

        assertThat(events).containsExactly("flush", "discard");
    }
}
