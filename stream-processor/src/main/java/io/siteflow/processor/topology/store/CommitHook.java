package io.siteflow.processor.topology.store;

import java.util.Map;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.internals.CacheFlushListener;
import org.apache.kafka.streams.state.internals.CachedStateStore;

/**
 * A state store that holds nothing and tells its processor when the task commits: Kafka Streams flushes the
 * caches of a task's stores ({@link CachedStateStore#flushCache()}) when it prepares a commit, before the
 * producer flushes and the transaction commits, so what {@link #onCommit} writes to the task's uncached,
 * changelogged stores is part of that transaction (exactly-once). {@code clearCache} runs the discard action;
 * Kafka Streams 4.4 calls it only when it recycles a task (active to standby or back). After a dirty close under
 * exactly-once the task's local state is wiped and restored from the changelogs, and {@code init} builds the
 * processor's live objects again.
 *
 * <p>{@code CachedStateStore} is a Kafka Streams internal interface. No public API replaces it: the public
 * {@code StateStore.commit(Map)} runs in the task's {@code postCommit}, after the transaction committed. What
 * this class relies on is pinned by {@code CommitHookTest} against the real Kafka Streams classes (and end to end
 * by {@code ProcessorKillIT}), so a Kafka Streams upgrade that changes it fails there. One per task.
 */
public final class CommitHook implements StateStore, CachedStateStore<Object, Object> {
    private final String name;
    private volatile boolean open;
    private Runnable flush = () -> { };
    private Runnable discard = () -> { };

    private CommitHook(String name) {
        this.name = name;
    }

    /** The processor's actions: {@code flush} when the task commits, {@code discard} when it is closed dirty. */
    public void onCommit(Runnable flush, Runnable discard) {
        this.flush = flush;
        this.discard = discard;
    }

    @Override
    public void flushCache() {
        flush.run();
    }

    @Override
    public void clearCache() {
        discard.run();
    }

    @Override
    public boolean setFlushListener(CacheFlushListener<Object, Object> listener, boolean sendOldValues) {
        return false;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void init(StateStoreContext context, StateStore root) {
        context.register(root, (key, value) -> { });
        open = true;
    }

    @Override
    public void flush() {
        // nothing of its own: the processor's state is written in flushCache, before the commit
    }

    @Override
    public void close() {
        open = false;
    }

    @Override
    public boolean persistent() {
        return false;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    /** The builder the topology adds; the hook has no changelog and no cache. */
    public static StoreBuilder<CommitHook> builder(String name) {
        return new StoreBuilder<>() {
            @Override
            public StoreBuilder<CommitHook> withCachingEnabled() {
                return this;
            }

            @Override
            public StoreBuilder<CommitHook> withCachingDisabled() {
                return this;
            }

            @Override
            public StoreBuilder<CommitHook> withLoggingEnabled(Map<String, String> config) {
                return this;
            }

            @Override
            public StoreBuilder<CommitHook> withLoggingDisabled() {
                return this;
            }

            @Override
            public CommitHook build() {
                return new CommitHook(name);
            }

            @Override
            public Map<String, String> logConfig() {
                return Map.of();
            }

            @Override
            public boolean loggingEnabled() {
                return false;
            }

            @Override
            public String name() {
                return name;
            }
        };
    }
}
