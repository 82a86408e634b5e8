package io.siteflow.processor.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;

/**
 * Whether the local state of an application belongs to the Kafka cluster the processor meets. State built from
 * another cluster (a rebuilt cluster, another one, a broker whose data directory was removed) or from topics that
 * were deleted or recreated since holds offsets that point nowhere: Kafka Streams would wipe each task as corrupted
 * (an ERROR on every start) and its global thread would die on the first fetch out of range. Such state is
 * discarded before Kafka Streams starts ({@link ProcessorRuntime}), and everything is rebuilt from the topics.
 * Stateless.
 */
final class LocalState {
    private static final long TIMEOUT_S = 30;

    private LocalState() {
    }

    /**
     * The origin state built now would have: the cluster id, and the ids of the topics {@code topology} reads
     * (its sources and global stores' topics) and of the application's internal topics (changelogs, repartition)
     * that exist.
     *
     * @throws IllegalStateException naming the step when Kafka does not answer within 30 s
     */
    static StateOrigin current(Admin admin, Topology topology, String applicationId) {
        try {
            String cluster = admin.describeCluster().clusterId().get(TIMEOUT_S, TimeUnit.SECONDS);
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_S, TimeUnit.SECONDS);
            Set<String> names = new HashSet<>(sourceTopics(topology));
            existing.stream().filter(n -> n.startsWith(applicationId + "-")).forEach(names::add);
            names.retainAll(existing);
            Map<String, String> ids = new HashMap<>();
            Map<String, TopicDescription> described = admin.describeTopics(names).allTopicNames()
                    .get(TIMEOUT_S, TimeUnit.SECONDS);
            described.forEach((name, d) -> ids.put(name, d.topicId().toString()));
            return new StateOrigin(cluster, ids);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("state: cannot read the cluster id and topic ids: "
                    + (e.getCause() != null ? e.getCause() : e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("state: interrupted while reading the cluster id", e);
        }
    }

    /**
     * Why the state recorded in {@code appDir} must be discarded for a processor that meets {@code now} (the line
     * to log, naming {@code stateDir}); empty when it belongs, or when no origin is recorded (no state yet, or
     * state of a version that did not record one: kept).
     */
    static Optional<String> mismatch(Path stateDir, Path appDir, StateOrigin now) {
        return StateOrigin.read(appDir).flatMap(o -> o.mismatch(now, stateDir));
    }

    /**
     * The end offset of every partition of {@code topics} (by {@code topic-partition}), within {@code timeout}.
     *
     * @throws IllegalStateException when Kafka does not answer in time
     */
    static Map<String, Long> ends(Admin admin, Set<String> topics, Duration timeout) {
        Map<String, Long> out = new HashMap<>();
        offsets(admin, topics, OffsetSpec.latest(), timeout).forEach((tp, o) -> out.put(tp.toString(), o));
        return out;
    }

    /**
     * Why the global stores must be rebuilt from their topics although the state belongs to this cluster: retention
     * (or {@code deleteRecords}) removed records of a global topic the stores had not read when the processor
     * stopped ({@link StateOrigin#globalEnds()}); Kafka Streams would find their position out of range and stop its
     * global thread. Empty when nothing was removed they had not read.
     */
    static Optional<String> globalBehind(Admin admin, StateOrigin recorded, Path stateDir) {
        Map<String, TopicPartition> partitions = new HashMap<>();
        recorded.globalEnds().keySet().forEach(k -> partitions.put(k, partition(k)));
        Set<String> topics = new HashSet<>();
        partitions.values().forEach(tp -> topics.add(tp.topic()));
        Map<TopicPartition, Long> starts = offsets(admin, topics, OffsetSpec.earliest(), Duration.ofSeconds(TIMEOUT_S));
        for (Map.Entry<String, Long> e : recorded.globalEnds().entrySet()) {
            Long start = starts.get(partitions.get(e.getKey()));
            if (start != null && start > e.getValue()) {
                return Optional.of("the global stores in " + stateDir + " had read " + e.getKey() + " up to offset "
                        + e.getValue() + "; its records before offset " + start + " were deleted since (retention): "
                        + "rebuilding the global stores from their topics");
            }
        }
        return Optional.empty();
    }

    private static TopicPartition partition(String topicPartition) {
        int dash = topicPartition.lastIndexOf('-');
        return new TopicPartition(topicPartition.substring(0, dash),
                Integer.parseInt(topicPartition.substring(dash + 1)));
    }

    private static Map<TopicPartition, Long> offsets(Admin admin, Set<String> topics, OffsetSpec spec,
                                                     Duration timeout) {
        try {
            Set<String> existing = admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            Set<String> asked = new HashSet<>(topics);
            asked.retainAll(existing);
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            admin.describeTopics(asked).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((name, d) -> d.partitions().forEach(p -> request.put(new TopicPartition(name,
                            p.partition()), spec)));
            Map<TopicPartition, Long> out = new HashMap<>();
            admin.listOffsets(request).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    .forEach((tp, info) -> out.put(tp, info.offset()));
            return out;
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("state: cannot read the offsets of " + new TreeSet<>(topics) + ": "
                    + (e.getCause() != null ? e.getCause() : e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("state: interrupted while reading offsets", e);
        }
    }

    /** The topics of the topology's global stores. */
    static Set<String> globalTopics(Topology topology) {
        Set<String> out = new HashSet<>();
        for (TopologyDescription.GlobalStore g : topology.describe().globalStores()) {
            out.addAll(g.source().topicSet());
        }
        return out;
    }

    /** The topics the topology reads: its sources' and its global stores'. */
    static Set<String> sourceTopics(Topology topology) {
        Set<String> out = new HashSet<>();
        TopologyDescription d = topology.describe();
        for (TopologyDescription.Subtopology s : d.subtopologies()) {
            addSources(s.nodes(), out);
        }
        out.addAll(globalTopics(topology));
        return out;
    }

    private static void addSources(Collection<TopologyDescription.Node> nodes, Set<String> out) {
        for (TopologyDescription.Node n : nodes) {
            if (n instanceof TopologyDescription.Source s && s.topicSet() != null) {
                out.addAll(s.topicSet());
            }
        }
    }
}
