package io.siteflow.kafka.topics;

import io.siteflow.model.wire.Topics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;

/**
 * What the siteflow topics on a cluster look like against what their jobs need: a row per topic with its partitions,
 * replication, {@code min.insync.replicas} and findings. {@code siteflow topics check} prints it; {@code siteflow
 * process} refuses to start on an {@link Status#UNSAFE} row and logs each {@link Status#WARN} once. Immutable.
 *
 * @param brokers the brokers the cluster had when checked
 * @param rows    one per siteflow topic, in the order of {@link SiteflowTopics#names()}
 */
public record TopicCheck(int brokers, List<Row> rows) {
    /** How a topic stands, from best to worst. */
    public enum Status { OK, MISSING, WARN, UNSAFE }

    /**
     * One topic. For a missing topic the numbers are 0.
     *
     * @param findings what is wrong, worst first; empty when OK or MISSING
     */
    public record Row(String topic, int partitions, int replicationFactor, int minInsyncReplicas, Status status,
                      List<String> findings) {
        public Row {
            findings = List.copyOf(findings);
        }
    }

    /** The facts of one existing topic that the checks read. */
    public record Facts(int partitions, int replicationFactor, Map<String, String> configs) {
        public Facts {
            configs = Map.copyOf(configs);
        }

        int minInsyncReplicas() {
            return Integer.parseInt(configs.getOrDefault("min.insync.replicas", "1"));
        }
    }

    public TopicCheck {
        rows = List.copyOf(rows);
    }

    private static final long TIMEOUT_MS = 30_000;
    private static final Set<String> READ = Set.of("cleanup.policy", "message.timestamp.type", "retention.ms",
            "min.insync.replicas");

    /**
     * Reads the cluster's siteflow topics and checks them.
     *
     * @throws TopicAdmin.TopicAdminException naming the call when the cluster does not answer within 30 s
     */
    public static TopicCheck run(Admin admin, Collection<String> names) {
        try {
            int brokers = admin.describeCluster().nodes().get(TIMEOUT_MS, TimeUnit.MILLISECONDS).size();
            Set<String> existing = admin.listTopics().names().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            List<String> present = names.stream().filter(existing::contains).toList();
            Map<String, TopicDescription> described = admin.describeTopics(present).allTopicNames()
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            List<ConfigResource> resources = present.stream()
                    .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
            Map<ConfigResource, Config> configs = admin.describeConfigs(resources).all()
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            Map<String, Facts> facts = new LinkedHashMap<>();
            for (String t : present) {
                TopicDescription d = described.get(t);
                Map<String, String> c = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, t)).entries()
                        .stream().filter(e -> READ.contains(e.name()) && e.value() != null)
                        .collect(Collectors.toMap(ConfigEntry::name, ConfigEntry::value));
                facts.put(t, new Facts(d.partitions().size(), d.partitions().get(0).replicas().size(), c));
            }
            return of(brokers, names, facts);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicAdmin.TopicAdminException("interrupted while checking topics", e);
        } catch (ExecutionException | TimeoutException e) {
            Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new TopicAdmin.TopicAdminException("cannot check topics: "
                    + (c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage()), c);
        }
    }

    /** The check of {@code names} on a cluster of {@code brokers} whose existing topics have these {@code facts}. */
    public static TopicCheck of(int brokers, Collection<String> names, Map<String, Facts> facts) {
        List<Row> rows = new ArrayList<>();
        for (String t : names) {
            Facts f = facts.get(t);
            if (f == null) {
                rows.add(new Row(t, 0, 0, 0, Status.MISSING, List.of()));
                continue;
            }
            List<String> unsafe = new ArrayList<>();
            List<String> warn = new ArrayList<>();
            check(t, f, brokers, unsafe, warn);
            List<String> all = new ArrayList<>(unsafe);
            all.addAll(warn);
            Status s = !unsafe.isEmpty() ? Status.UNSAFE : !warn.isEmpty() ? Status.WARN : Status.OK;
            rows.add(new Row(t, f.partitions(), f.replicationFactor(), f.minInsyncReplicas(), s, all));
        }
        return new TopicCheck(brokers, rows);
    }

    private static void check(String topic, Facts f, int brokers, List<String> unsafe, List<String> warn) {
        Map<String, String> c = f.configs();
        if (topic.equals(Topics.SITES) && !c.getOrDefault("cleanup.policy", "delete").contains("compact")) {
            unsafe.add("cleanup.policy=" + c.getOrDefault("cleanup.policy", "delete") + ": retention would delete "
                    + "the site model; it must be compacted (cleanup.policy=compact)");
        }
        long retention = Long.parseLong(c.getOrDefault("retention.ms", "604800000"));
        if (topic.equals(Topics.ISOLATION) && !c.getOrDefault("cleanup.policy", "delete").contains("compact")) {
            warn.add("cleanup.policy=" + c.getOrDefault("cleanup.policy", "delete") + ": every update of an edge's "
                    + "window is kept, not only its newest value; compact it (cleanup.policy=compact,delete)");
        }
        if ((topic.equals(Topics.FLOWS) || topic.equals(Topics.ISOLATION))
                && "CreateTime".equals(c.getOrDefault("message.timestamp.type", "CreateTime"))
                && retention >= 0) {
            unsafe.add("message.timestamp.type=CreateTime with retention.ms=" + retention + " (" + human(retention)
                    + "): records of a replayed capture older than that are deleted as they arrive; "
                    + "use message.timestamp.type=LogAppendTime");
        }
        int minIsr = f.minInsyncReplicas();
        if (minIsr > f.replicationFactor()) {
            unsafe.add("min.insync.replicas=" + minIsr + " > replication factor " + f.replicationFactor()
                    + ": every acks=all write fails");
        }
        if (f.replicationFactor() == 1 && brokers > 1) {
            warn.add("replication factor 1 on a " + brokers + "-broker cluster: losing one broker loses this "
                    + "topic's records");
        } else if (f.replicationFactor() >= 3 && minIsr < 2) {
            warn.add("min.insync.replicas=" + minIsr + " with replication factor " + f.replicationFactor()
                    + ": an acknowledged record may be on one broker only");
        }
    }

    /** The rows that are {@code status}. */
    public List<Row> rows(Status status) {
        return rows.stream().filter(r -> r.status() == status).toList();
    }

    /** True when no row is {@link Status#UNSAFE}. */
    public boolean safe() {
        return rows(Status.UNSAFE).isEmpty();
    }

    /** The table {@code siteflow topics check} prints, one line per topic and finding, then a summary line. */
    public String table(String bootstrap) {
        StringBuilder b = new StringBuilder();
        b.append("siteflow topics on ").append(bootstrap).append(" (").append(brokers)
                .append(brokers == 1 ? " broker" : " brokers").append("):\n");
        String fmt = "%-18s %10s %8s %8s  %-7s %s%n";
        b.append(String.format(fmt, "TOPIC", "PARTITIONS", "REPLICAS", "MIN.ISR", "STATUS", "FINDING"));
        for (Row r : rows) {
            boolean missing = r.status() == Status.MISSING;
            String first = missing ? "does not exist; siteflow process or broker creates it"
                    : r.findings().isEmpty() ? "" : r.findings().get(0);
            b.append(String.format(fmt, r.topic(), missing ? "-" : r.partitions(),
                    missing ? "-" : r.replicationFactor(), missing ? "-" : r.minInsyncReplicas(),
                    r.status().name().toLowerCase(java.util.Locale.ROOT), first).stripTrailing()).append('\n');
            for (String more : r.findings().subList(Math.min(1, r.findings().size()), r.findings().size())) {
                b.append(String.format(fmt, "", "", "", "", "", more).stripTrailing()).append('\n');
            }
        }
        int unsafe = rows(Status.UNSAFE).size();
        int warn = rows(Status.WARN).size();
        int missing = rows(Status.MISSING).size();
        b.append(unsafe).append(" unsafe, ").append(warn).append(warn == 1 ? " warning, " : " warnings, ")
                .append(missing).append(" missing")
                .append(unsafe > 0 ? ": siteflow process refuses to start until the unsafe topics are fixed\n" : "\n");
        return b.toString();
    }

    /** Milliseconds as the largest whole unit: {@code 7 d}, {@code 36 h}, {@code 90 min}, {@code 1500 ms}. */
    static String human(long ms) {
        long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] names = {" d", " h", " min", " s"};
        for (int i = 0; i < units.length; i++) {
            if (ms >= units[i] && ms % units[i] == 0) {
                return ms / units[i] + names[i];
            }
        }
        return ms + " ms";
    }
}
