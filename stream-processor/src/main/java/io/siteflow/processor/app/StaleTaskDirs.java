package io.siteflow.processor.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the local state of tasks whose sub-topology the running topology no longer has: an earlier version's
 * (2026-11-30 merged the route and audit sub-topologies into one). Kafka Streams 4.4 opens every task directory it
 * finds at start ({@code StateDirectory.initializeStartupStores}) and fails on those with
 * "Metrics recorder is re-initialised with different task ... This is a bug in Kafka Streams". Their data is in the
 * changelogs, from which the tasks that still exist restore what they lack. Call before the {@code KafkaStreams}
 * instance starts. Stateless.
 */
final class StaleTaskDirs {
    private static final Logger LOG = LoggerFactory.getLogger(StaleTaskDirs.class);
    private static final Pattern TASK = Pattern.compile("(\\d+)_\\d+");

    private StaleTaskDirs() {
    }

    /**
     * Deletes the task directories under {@code appDir} whose sub-topology {@code topology} does not have.
     *
     * @return the names of the directories removed
     */
    static List<String> remove(Path appDir, Topology topology) {
        Set<Integer> live = topology.describe().subtopologies().stream().map(TopologyDescription.Subtopology::id)
                .collect(Collectors.toSet());
        List<String> removed = new ArrayList<>();
        if (!Files.isDirectory(appDir)) {
            return removed;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(appDir, Files::isDirectory)) {
            for (Path d : dirs) {
                Matcher m = TASK.matcher(d.getFileName().toString());
                if (m.matches() && !live.contains(Integer.parseInt(m.group(1)))) {
                    deleteTree(d);
                    removed.add(d.getFileName().toString());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clean the state directory " + appDir + ": " + e.getMessage(), e);
        }
        if (!removed.isEmpty()) {
            removed.sort(Comparator.naturalOrder());
            LOG.info("removed the local state of tasks this version does not have {} in {}; the tasks it has restore "
                    + "what they lack from the changelogs", removed, appDir);
        }
        return removed;
    }

    /** Deletes {@code dir} and everything under it. */
    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
