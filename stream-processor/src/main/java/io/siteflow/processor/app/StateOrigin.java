package io.siteflow.processor.app;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Where the local state of an application came from: the Kafka cluster id and the topic id of every topic the
 * state was read from (the topology's input topics, its changelog and repartition topics). Kept in the
 * application's state directory as {@value #FILE}; compared at start with the cluster the processor meets
 * ({@link LocalState}). Immutable.
 *
 * @param clusterId  the cluster id ({@code Admin.describeCluster().clusterId()})
 * @param topicIds   topic name to topic id ({@code TopicDescription.topicId()} as text), ordered by name
 * @param globalEnds partition of a global store's topic ({@code topic-partition}) to its end offset when the
 *                   processor stopped: the global store read no further; empty when not known (not stopped cleanly)
 */
record StateOrigin(String clusterId, Map<String, String> topicIds, Map<String, Long> globalEnds) {
    /** The file under {@code STATE_DIR/APPLICATION_ID}. */
    static final String FILE = "siteflow-origin.properties";
    private static final String CLUSTER = "cluster.id";
    private static final String TOPIC = "topic.";
    private static final String END = "end.";

    StateOrigin {
        Objects.requireNonNull(clusterId, "clusterId");
        topicIds = java.util.Collections.unmodifiableMap(new TreeMap<>(topicIds));
        globalEnds = java.util.Collections.unmodifiableMap(new TreeMap<>(globalEnds));
    }

    /** Without the global stores' end offsets. */
    StateOrigin(String clusterId, Map<String, String> topicIds) {
        this(clusterId, topicIds, Map.of());
    }

    /** This origin with the global stores' end offsets {@code ends} (by {@code topic-partition}). */
    StateOrigin withGlobalEnds(Map<String, Long> ends) {
        return new StateOrigin(clusterId, topicIds, ends);
    }

    /**
     * Why state built from {@code this} origin does not belong to {@code now}: another cluster, or a topic it was
     * read from that was deleted or recreated since (a new topic id). Empty when it belongs. {@code stateDir} is
     * named in the text.
     */
    Optional<String> mismatch(StateOrigin now, Path stateDir) {
        if (!clusterId.equals(now.clusterId)) {
            return Optional.of("state in " + stateDir + " was built from cluster " + clusterId + "; this is cluster "
                    + now.clusterId + ": discarding it and rebuilding from the topics");
        }
        for (Map.Entry<String, String> t : topicIds.entrySet()) {
            String id = now.topicIds.get(t.getKey());
            if (id != null && !id.equals(t.getValue())) {
                return Optional.of("state in " + stateDir + " was built from topic " + t.getKey() + " with id "
                        + t.getValue() + "; that topic was recreated (id " + id + " now): discarding it and "
                        + "rebuilding from the topics");
            }
        }
        for (Map.Entry<String, String> t : topicIds.entrySet()) {
            if (!now.topicIds.containsKey(t.getKey())) {
                return Optional.of("state in " + stateDir + " was built from topic " + t.getKey() + " (id "
                        + t.getValue() + "), which cluster " + clusterId + " no longer has: discarding it and "
                        + "rebuilding from the topics");
            }
        }
        return Optional.empty();
    }

    /**
     * The origin recorded in {@code appDir}, empty when none is (state of an earlier version, or no state).
     *
     * @throws UncheckedIOException naming the file when it cannot be read or lacks {@code cluster.id}
     */
    static Optional<StateOrigin> read(Path appDir) {
        Path file = appDir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new UncheckedIOException(new IOException(file + ": " + e.getMessage(), e));
        }
        String cluster = p.getProperty(CLUSTER);
        if (cluster == null || cluster.isBlank()) {
            throw new UncheckedIOException(new IOException(file + ": no " + CLUSTER));
        }
        Map<String, String> topics = new TreeMap<>();
        p.stringPropertyNames().stream().filter(k -> k.startsWith(TOPIC))
                .forEach(k -> topics.put(k.substring(TOPIC.length()), p.getProperty(k)));
        Map<String, Long> ends = new TreeMap<>();
        for (String k : p.stringPropertyNames()) {
            if (k.startsWith(END)) {
                try {
                    ends.put(k.substring(END.length()), Long.parseLong(p.getProperty(k)));
                } catch (NumberFormatException e) {
                    throw new UncheckedIOException(new IOException(file + ": " + k + ": \"" + p.getProperty(k)
                            + "\" is not an offset"));
                }
            }
        }
        return Optional.of(new StateOrigin(cluster, topics, ends));
    }

    /** Records this origin in {@code appDir} (created when missing), replacing the file whole. */
    void write(Path appDir) {
        Properties p = new Properties();
        p.setProperty(CLUSTER, clusterId);
        topicIds.forEach((name, id) -> p.setProperty(TOPIC + name, id));
        globalEnds.forEach((tp, end) -> p.setProperty(END + tp, Long.toString(end)));
        try {
            Files.createDirectories(appDir);
            Path tmp = appDir.resolve(FILE + ".tmp");
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                p.store(w, "the Kafka cluster and topics this application's local state was built from (siteflow "
                        + "process discards the state when they change)");
            }
            Files.move(tmp, appDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record the state's origin in " + appDir + ": " + e.getMessage(), e);
        }
    }
}
