package io.siteflow.processor.query;

import io.siteflow.processor.topology.TopologySpec;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * Where keys live among the instances of the application. {@link #SINGLE} is one instance holding everything.
 * Thread-safe.
 */
public interface Cluster {

    /** Where the task of an audited server's address runs now. */
    sealed interface Owner permits Here, At, Moving {
    }

    /**
     * This instance owns it, in the task of {@code partition} ({@link StoreView#ANY_PARTITION} on a single
     * instance, where every task is local). Its store may still be restoring: reading it there says so.
     */
    record Here(int partition) implements Owner {
    }

    /** Another instance owns it, in the task of {@code partition}. */
    record At(HostInfo host, int partition) implements Owner {
    }

    /** No instance owns it now (the instances are rebalancing); {@code reason} says so for people. */
    record Moving(String reason) implements Owner {
    }

    /** One instance: every key is local, there are no others. */
    Cluster SINGLE = new Cluster() {
        @Override
        public Owner owner(String server) {
            return new Here(StoreView.ANY_PARTITION);
        }

        @Override
        public List<HostInfo> others() {
            return List.of();
        }
    };

    /** The instance that owns the task of this audited server's address, or why none does now. */
    Owner owner(String server);

    /** The other instances that hold any part of the audit stores. */
    List<HostInfo> others();

    /**
     * The instance that owns the task of {@code store} that holds {@code key} (a store of another sub-topology
     * than the audit's, such as the what-if's, whose tasks may run elsewhere), or why none does now. By default
     * {@link #owner(String)}, which is right for a cluster whose instances each run every sub-topology's tasks of
     * the same partitions (one instance; the fakes of tests).
     */
    default Owner owner(String store, String key) {
        return owner(key);
    }

    /** The other instances that hold any part of {@code store}; by default {@link #others()}. */
    default List<HostInfo> others(String store) {
        return others();
    }

    /**
     * Over {@link KafkaStreams} metadata ({@code queryMetadataForKey} / {@code streamsMetadataForStore}); {@code self}
     * is this instance's {@code application.server}. A key without an active host (during a rebalance) is
     * {@link Moving}, never taken for local.
     */
    static Cluster of(KafkaStreams streams, HostInfo self) {
        return new Cluster() {
            @Override
            public Owner owner(String server) {
                return owner(TopologySpec.CUMULATIVE_STORE, server);
            }

            @Override
            public Owner owner(String store, String server) {
                KeyQueryMetadata m = streams.queryMetadataForKey(store, server, Serdes.String().serializer());
                HostInfo h = m.activeHost();
                if (h == null || h.equals(HostInfo.unavailable())) {
                    return new Moving("no instance runs its task now (the instances are rebalancing)");
                }
                return h.equals(self) ? new Here(m.partition()) : new At(h, m.partition());
            }

            @Override
            public List<HostInfo> others() {
                return others(TopologySpec.CUMULATIVE_STORE);
            }

            @Override
            public List<HostInfo> others(String store) {
                return streams.streamsMetadataForStore(store).stream()
                        .map(StreamsMetadata::hostInfo).filter(h -> !h.equals(self))
                        .filter(h -> !h.equals(HostInfo.unavailable())).distinct().toList();
            }
        };
    }
}
