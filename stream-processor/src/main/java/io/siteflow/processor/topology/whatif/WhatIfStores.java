package io.siteflow.processor.topology.whatif;

import io.siteflow.rules.verdict.RttHistogram;
import io.siteflow.rules.whatif.ServerTraffic;
import io.siteflow.rules.whatif.WhatIfCodec;
import java.time.Duration;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The names, keys and serdes of the what-if stage (stream-processor/docs/topology.md, "What-if stage"): its
 * repartition topic and its stores (names start with {@code whatif}), persistent and changelogged, written when the
 * task commits (write-behind, so not cached). Each server's inputs and the site-pair RTTs are kept per UTC day of
 * event time, for {@link #RETENTION} after the newest day the task has seen. Constants, builders and key helpers
 * only; thread-safe.
 */
public final class WhatIfStores {
    /** The stage's name: the prefix of its nodes and stores. */
    public static final String NAME = "whatif";
    /** The internal topic that carries each record's {@link WhatIfUpdate} keyed by server address. */
    public static final String BY_SERVER = "whatif-by-server";
    /** {@code address|dayStart} to the server's {@link ServerTraffic} of that day (bounded). */
    public static final String SERVERS = "whatif-servers";
    /** {@code siteA|siteB|dayStart} to the RTT histogram of that site pair and day (every record's sample). */
    public static final String RTTS = "whatif-rtts";
    /** Server address to its observer for the what-if ({@code ObserverRule}). */
    public static final String OBSERVERS = "whatif-observers";
    /** Not a store of data: tells the what-if step when its task commits. */
    public static final String COMMIT_HOOK = "whatif-commit-hook";
    /**
     * How long the inputs are kept: the days of the last 7 days of event time before the newest day the task has
     * seen, and that day (so 7 to 8 days): what {@code siteflow.flows} keeps by default (7 days), which the
     * what-if read before it was kept here.
     */
    public static final Duration RETENTION = Duration.ofDays(7);
    /** One day, ms: the inputs' time buckets. */
    public static final long DAY_MS = 86_400_000L;

    public static final Serde<String> STRING = Serdes.String();
    public static final Serde<ServerTraffic> TRAFFIC = Serdes.serdeFrom(
            (topic, t) -> t == null ? null : WhatIfCodec.toBytes(t),
            (topic, b) -> b == null ? null : read(topic, () -> WhatIfCodec.traffic(b)));
    public static final Serde<RttHistogram> HISTOGRAM = Serdes.serdeFrom(
            (topic, h) -> h == null ? null : WhatIfCodec.toBytes(h),
            (topic, b) -> b == null ? null : read(topic, () -> WhatIfCodec.histogram(b)));
    public static final Serde<WhatIfUpdate> UPDATE = Serdes.serdeFrom(
            (topic, u) -> u == null ? null : u.toBytes(),
            (topic, b) -> b == null ? null : read(topic, () -> WhatIfUpdate.fromBytes(b)));

    private WhatIfStores() {
    }

    /** {@link #SERVERS}, written on commit. */
    public static StoreBuilder<KeyValueStore<String, ServerTraffic>> servers() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(SERVERS), STRING, TRAFFIC)
                .withCachingDisabled();
    }

    /** {@link #RTTS}, written on commit. */
    public static StoreBuilder<KeyValueStore<String, RttHistogram>> rtts() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(RTTS), STRING, HISTOGRAM)
                .withCachingDisabled();
    }

    /** {@link #OBSERVERS}, written on commit. */
    public static StoreBuilder<KeyValueStore<String, String>> observers() {
        return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(OBSERVERS), STRING, STRING)
                .withCachingDisabled();
    }

    /** The UTC day of {@code timeMs}: its start, epoch ms. */
    public static long dayOf(long timeMs) {
        return Math.floorDiv(timeMs, DAY_MS) * DAY_MS;
    }

    /** The {@link #SERVERS} key of a server's day. */
    public static String serverKey(String address, long day) {
        return address + "|" + day;
    }

    /** The prefix of every {@link #SERVERS} key of a server. */
    public static String serverPrefix(String address) {
        return address + "|";
    }

    /** The day a {@link #SERVERS} or {@link #RTTS} key ends with. */
    public static long dayOfKey(String key) {
        return Long.parseLong(key.substring(key.lastIndexOf('|') + 1));
    }

    /** The {@link #RTTS} key of a site pair's day. */
    public static String rttKey(String siteA, String siteB, long day) {
        return siteA + "|" + siteB + "|" + day;
    }

    private static <T> T read(String topic, java.util.function.Supplier<T> r) {
        try {
            return r.get();
        } catch (IllegalArgumentException e) {
            throw new SerializationException(topic + ": " + e.getMessage(), e);
        }
    }
}
