package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.systemtest.pipeline.ThreeProcessorsKillIT.ProcessorNode;
import io.siteflow.processor.topology.SiteflowTopology;
import io.siteflow.processor.topology.TopologyConfig;
import io.siteflow.processor.topology.TopologySpec;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.TopologyDescription;

/**
 * Where the audit tasks of {@link ThreeProcessorsKillIT} run, read from the outside as an operator could: the
 * owner of a server's aggregate is the instance whose internal API answers 200 for it in the task of one
 * partition ({@code /internal/store/cumulative?pair=...&partition=P}, a 503 elsewhere); an instance keeps a standby
 * of a task when its {@code /metrics} has Kafka Streams' standby counter for it
 * ({@code kafka_stream_task_update_total{task_id}}, registered for standby tasks only).
 */
final class TaskPlacement {
    /** Where a server's aggregate lives: the instance and the partition of its task. */
    record Owner(ProcessorNode node, int partition) {
    }

    private static final Pattern SAMPLE = Pattern.compile("^([a-z_]+)\\{([^}]*)\\} (\\S+)$");
    private static final Pattern TASK = Pattern.compile("task_id=\"([^\"]+)\"");

    private TaskPlacement() {
    }

    /** The owner of each server's aggregate among {@code nodes} (servers without one now are left out). */
    static Map<String, Owner> owners(List<ProcessorNode> nodes) throws Exception {
        Map<String, Owner> out = new LinkedHashMap<>();
        for (String server : io.siteflow.synth.SyntheticCluster.SERVERS) {
            for (ProcessorNode n : nodes) {
                for (int p = 0; p < ThreeProcessorsKillIT.PARTITIONS; p++) {
                    String pair = URLEncoder.encode(server + "|region1", StandardCharsets.UTF_8);
                    if (ProcessorNode.get(n.url() + "/internal/store/cumulative?pair=" + pair + "&partition=" + p)
                            .statusCode() == 200) {
                        out.put(server, new Owner(n, p));
                    }
                }
            }
        }
        return out;
    }

    /** The instance that owns the most servers (the lowest index of those that tie). */
    static ProcessorNode victim(Map<String, Owner> owners) {
        Map<ProcessorNode, Integer> count = new HashMap<>();
        owners.values().forEach(o -> count.merge(o.node(), 1, Integer::sum));
        return count.entrySet().stream().max(Comparator.comparing((Map.Entry<ProcessorNode, Integer> e) -> e.getValue())
                .thenComparing(e -> -e.getKey().index())).orElseThrow().getKey();
    }

    /** For each server in {@code moved}, the other instance that keeps a standby of its audit task. */
    static Map<String, ProcessorNode> standbys(List<ProcessorNode> nodes, ProcessorNode victim, Map<String, Owner> moved)
            throws Exception {
        Map<String, ProcessorNode> out = new LinkedHashMap<>();
        for (ProcessorNode n : nodes) {
            if (n != victim) {
                Map<String, Double> updated = taskMetric(n, "kafka_stream_task_update_total");
                moved.forEach((server, o) -> {
                    if (updated.containsKey(auditTask(o.partition()))) {
                        out.put(server, n);
                    }
                });
            }
        }
        return out;
    }

    /**
     * The servers of the killed instance are owned now by the survivor that held the standby of their task, and that
     * standby's copy was kept, not thrown away for a restore from the changelog's start (Kafka Streams logs "Detected
     * the states of tasks [...] are corrupted" when it throws it away: what exactly-once did before siteflow turned
     * on transactional state stores). Prints what it found, with the size of the changelogs a restore would read.
     */
    static void verifyTakeover(String bootstrap, String app, List<ProcessorNode> nodes,
                                               ProcessorNode victim, Map<String, Owner> moved,
                                               Map<String, ProcessorNode> standbys) throws Exception {
        List<ProcessorNode> survivors = nodes.stream().filter(n -> n != victim).toList();
        Map<String, Owner> now = owners(survivors);
        for (Map.Entry<String, Owner> e : moved.entrySet()) {
            String task = auditTask(e.getValue().partition());
            Owner owner = now.get(e.getKey());
            assertThat(owner).as("owner of " + e.getKey()).isNotNull();
            assertThat(owner.node()).as("owner of " + e.getKey() + " (task " + task + ")").isEqualTo(standbys.get(e.getKey()));
            boolean thrownAway = owner.node().child().lines().stream().anyMatch(l -> l.contains("Detected the states of tasks [")
                    && l.contains("are corrupted") && Pattern.compile("[\\[ ]" + task + "[],]").matcher(l).find());
            System.out.printf("ThreeProcessorsKillIT: task %s of %s moved from %s to %s, which held its standby; the "
                    + "standby's copy was %s (the task's changelogs hold %d records)%n", task, e.getKey(), victim,
                    owner.node(), thrownAway ? "thrown away (TaskCorruptedException) and the task restored from the "
                    + "changelogs' start" : "kept", changelogRecords(bootstrap, app, e.getValue().partition()));
            assertThat(thrownAway).as("the standby's copy of task " + task + " on " + owner.node() + " was thrown "
                    + "away (\"Detected the states of tasks [" + task + "] are corrupted\" in its log)").isFalse();
        }
    }

    /** The audit task of a partition: {@code <sub-topology holding the cumulative store>_<partition>}. */
    static String auditTask(int partition) {
        return auditSubtopology().id() + "_" + partition;
    }

    private static TopologyDescription.Subtopology auditSubtopology() {
        for (TopologyDescription.Subtopology s : SiteflowTopology.build(TopologyConfig.DEFAULTS).describe().subtopologies()) {
            if (stores(s).contains(TopologySpec.CUMULATIVE_STORE)) {
                return s;
            }
        }
        throw new AssertionError("no sub-topology holds " + TopologySpec.CUMULATIVE_STORE);
    }

    private static TreeSet<String> stores(TopologyDescription.Subtopology s) {
        TreeSet<String> out = new TreeSet<>();
        s.nodes().forEach(n -> {
            if (n instanceof TopologyDescription.Processor p) {
                out.addAll(p.stores());
            }
        });
        return out;
    }

    /** Records in the changelogs of the audit task's stores at {@code partition} (their end offsets). */
    private static long changelogRecords(String bootstrap, String app, int partition) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            var topics = admin.listTopics().names().get();
            Map<TopicPartition, OffsetSpec> ask = new HashMap<>();
            for (String store : stores(auditSubtopology())) {
                String topic = app + "-" + store + "-changelog";
                if (topics.contains(topic)) {
                    ask.put(new TopicPartition(topic, partition), OffsetSpec.latest());
                }
            }
            return admin.listOffsets(ask).all().get().values().stream().mapToLong(i -> i.offset()).sum();
        }
    }

    /** A Kafka Streams task metric of an instance by task id (summed over threads), from its {@code /metrics}. */
    static Map<String, Double> taskMetric(ProcessorNode n, String name) throws Exception {
        Map<String, Double> out = new HashMap<>();
        for (String line : ProcessorNode.get(n.url() + "/metrics").body().lines().toList()) {
            Matcher m = SAMPLE.matcher(line);
            if (m.matches() && m.group(1).equals(name)) {
                Matcher t = TASK.matcher(m.group(2));
                if (t.find()) {
                    out.merge(t.group(1), Double.parseDouble(m.group(3)), Double::sum);
                }
            }
        }
        return out;
    }
}
