package io.siteflow.processor.topology;

import io.siteflow.model.wire.Heartbeat;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.TimestampedKeyValueStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;

/**
 * Keeps the global {@code agents} store: each agent's last heartbeat under its id (as {@link GlobalTextStep} keeps
 * a text store), and, because the last heartbeat alone cannot say that an agent was silent in the past, each
 * silence: when a heartbeat comes more than {@link #SILENT_AFTER_MS} (by the heartbeats' own times) after the
 * agent's previous one, the gap under {@code gap|AGENT|FROM} with the value {@code TO} (epoch ms). The isolation
 * report makes an observer silent in its period UNVERIFIED ({@code StreamsQueries.isolation}). The gaps live in the
 * local store, kept across restarts; a store rebuilt from the topic has them again only if Kafka Streams runs this
 * processor over the restored records (4.4's global state manager reprocesses stores that have a processor,
 * KAFKA-7663; not tested here). Keys
 * of {@code siteflow.agents} that start with {@code gap|} are ignored (no agent id has a {@code |}). Runs on the
 * global thread; tells {@link KnownAgents} of each heartbeat.
 */
public final class HeartbeatStep implements Processor<String, String, Void, Void> {
    /** An agent is silent when no heartbeat came for this long. */
    public static final long SILENT_AFTER_MS = 30_000L;
    /** The prefix of the gap keys. */
    public static final String GAP_PREFIX = "gap|";
    private final String storeName;
    private final KnownAgents agents;
    private TimestampedKeyValueStore<String, String> store;

    HeartbeatStep(String storeName, KnownAgents agents) {
        this.storeName = storeName;
        this.agents = agents;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        store = context.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, String> rec) {
        if (rec.key() == null || rec.key().startsWith(GAP_PREFIX)) {
            return;
        }
        if (rec.value() == null) {
            store.delete(rec.key());
        } else {
            gap(rec.key(), rec.value(), rec.timestamp());
            store.put(rec.key(), ValueAndTimestamp.make(rec.value(), rec.timestamp()));
        }
        agents.changed();
    }

    private void gap(String agent, String heartbeat, long timestamp) {
        ValueAndTimestamp<String> before = store.get(agent);
        if (before == null) {
            return;
        }
        Optional<Heartbeat> prev = Heartbeat.parse(before.value());
        Optional<Heartbeat> now = Heartbeat.parse(heartbeat);
        if (prev.isPresent() && now.isPresent() && now.get().time() - prev.get().time() > SILENT_AFTER_MS) {
            store.put(GAP_PREFIX + agent + "|" + prev.get().time(),
                    ValueAndTimestamp.make(Long.toString(now.get().time()), timestamp));
        }
    }
}
