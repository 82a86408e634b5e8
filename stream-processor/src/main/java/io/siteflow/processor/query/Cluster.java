package io.siteflow.processor.query;

import io.siteflow.processor.topology.TopologySpec;
import java.util.List;
import java.util.Optional;
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

    /** One instance: every key is local, there are no others. */
    Cluster SINGLE = new Cluster() {
        @Override
        public Optional<HostInfo> remoteOwner(String server) {
            return Optional.empty();
        }

        @Override
        public List<HostInfo> others() {
            return List.of();
        }
    };

    /** The other instance that owns the task of this audited server's address, empty when it is this one. */
    Optional<HostInfo> remoteOwner(String server);

    /** The other instances that hold any part of the audit stores. */
    List<HostInfo> others();

    /**
     * Over {@link KafkaStreams} metadata ({@code queryMetadataForKey} / {@code streamsMetadataForStore}); {@code self}
     * is this instance's {@code application.server}. Unknown owners (during a rebalance) count as local.
     */
    static Cluster of(KafkaStreams streams, HostInfo self) {
        return new Cluster() {
            @Override
            public Optional<HostInfo> remoteOwner(String server) {
                KeyQueryMetadata m = streams.queryMetadataForKey(TopologySpec.CUMULATIVE_STORE, server,
                        Serdes.String().serializer());
                HostInfo h = m.activeHost();
                return h == null || h.equals(self) || h.equals(HostInfo.unavailable()) ? Optional.empty() : Optional.of(h);
            }

            @Override
            public List<HostInfo> others() {
                return streams.streamsMetadataForStore(TopologySpec.CUMULATIVE_STORE).stream()
                        .map(StreamsMetadata::hostInfo).filter(h -> !h.equals(self))
                        .filter(h -> !h.equals(HostInfo.unavailable())).distinct().toList();
            }
        };
    }
}
