package io.siteflow.systemtest.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.cli.CommandRun;
import io.siteflow.broker.ChildBroker;
import io.siteflow.kafka.topics.SiteflowTopics;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.awaitility.Awaitility;

/**
 * Three {@code siteflow broker} nodes of one KRaft cluster (combined broker and controller roles), each in a child
 * JVM ({@link ChildBroker}) on the loopback of the calling thread's network namespace, with their own data
 * directories and log files under {@code target/it-logs}. Nodes are numbered 1 to 3 as their {@code --node-id}.
 * {@link #close()} stops every node still running (SIGTERM to its PID, SIGKILL after 60 s). Not thread-safe.
 */
final class ThreeBrokers implements AutoCloseable {
    static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qk";
    static final Duration START = Duration.ofMinutes(4);

    private final List<ChildBroker> nodes = new ArrayList<>();
    private final List<String> addresses = new ArrayList<>();
    private final List<Path> logs = new ArrayList<>();
    /** How many times each node has printed its address (once per start). */
    private final long[] starts = new long[3];

    private ThreeBrokers() {
    }

    /**
     * Starts the three nodes with {@code jvmOptions} and {@code moreArgs} (e.g. {@code --broker-config}) and waits
     * until each is up; their logs are {@code target/it-logs/<name>-node<N>.log}.
     */
    static ThreeBrokers start(Path dir, String name, List<String> jvmOptions, List<String> moreArgs)
            throws Exception {
        ThreeBrokers b = new ThreeBrokers();
        try {
            b.launch(dir, name, jvmOptions, moreArgs);
            for (int id = 1; id <= 3; id++) {
                b.awaitUp(id);
            }
            return b;
        } catch (Exception | AssertionError e) {
            b.close();
            throw e;
        }
    }

    private void launch(Path dir, String name, List<String> jvmOptions, List<String> moreArgs) throws IOException {
        StringBuilder voters = new StringBuilder();
        for (int id = 1; id <= 3; id++) {
            addresses.add("127.0.0.1:" + freeLoopbackPort());
            voters.append(id == 1 ? "" : ",").append(id).append("@127.0.0.1:").append(freeLoopbackPort());
        }
        Path logDir = Files.createDirectories(Path.of("target", "it-logs"));
        for (int id = 1; id <= 3; id++) {
            Path log = logDir.resolve(name + "-node" + id + ".log");
            Files.deleteIfExists(log);
            logs.add(log);
            List<String> args = new ArrayList<>(List.of("--cluster-id", CLUSTER_ID, "--node-id", Integer.toString(id),
                    "--voters", voters.toString(), "--listen", addresses.get(id - 1),
                    "--data-dir", dir.resolve("node" + id).toString()));
            args.addAll(moreArgs);
            nodes.add(ChildBroker.start(log, jvmOptions, args));
        }
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return probe.getLocalPort();
        }
    }

    /** {@code host:port,host:port,host:port}. */
    String bootstrap() {
        return String.join(",", addresses);
    }

    /** The log files of the three nodes (every start of a node appends to its file). */
    List<Path> logs() {
        return List.copyOf(logs);
    }

    ChildBroker node(int id) {
        return nodes.get(id - 1);
    }

    /** SIGKILL to node {@code id}: no controlled shutdown, no flush. */
    void kill(int id) throws InterruptedException {
        node(id).kill();
    }

    /** SIGTERM to node {@code id} (a controlled shutdown); returns its exit code once it has exited. */
    int stop(int id) throws InterruptedException {
        return node(id).stop();
    }

    /** Starts node {@code id} again on its data directory (after {@link #kill} or {@link #stop}) and waits for it. */
    void restart(int id) throws Exception {
        assertThat(node(id).alive()).as("node %d still running", id).isFalse();
        nodes.set(id - 1, node(id).restart());
        awaitUp(id);
    }

    private void awaitUp(int id) {
        ChildBroker n = node(id);
        long expected = ++starts[id - 1];
        Awaitility.await("node " + id + " up").atMost(START).pollInterval(Duration.ofMillis(500))
                .until(() -> n.starts(addresses.get(id - 1)) == expected || !n.alive());
        assertThat(n.alive()).as("node %d: %s", id, n.tail()).isTrue();
    }

    /**
     * Waits until the nodes have created the siteflow topics, then checks them with {@code siteflow topics check}
     * ({@code clientArgs} added, e.g. {@code --kafka-config FILE}): three brokers, and every siteflow topic safe
     * with replication factor 3 and {@code min.insync.replicas=2}.
     */
    void awaitSafeTopics(Admin admin, String... clientArgs) {
        Awaitility.await("siteflow topics created").atMost(Duration.ofMinutes(2)).ignoreExceptions()
                .pollInterval(Duration.ofSeconds(1)).until(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS)
                        .containsAll(SiteflowTopics.SINGLE_NODE.names()));
        List<String> args = new ArrayList<>(List.of("topics", "check", "--bootstrap", bootstrap()));
        args.addAll(List.of(clientArgs));
        CommandRun check = CommandRun.of(args.toArray(String[]::new));
        assertThat(check.exitCode()).as(check.err()).isZero();
        assertThat(check.out()).contains("(3 brokers):\n").endsWith("0 unsafe, 0 warnings, 0 missing\n");
        for (String topic : SiteflowTopics.SINGLE_NODE.names()) {
            Pattern row = Pattern.compile(Pattern.quote(topic) + " +\\d+ +3 +2  ok *");
            assertThat(check.out().lines()).as("%s in%n%s", topic, check.out())
                    .anyMatch(l -> row.matcher(l).matches());
        }
    }

    /** Waits until every replica of every partition of every topic, Kafka's own included, is in sync. */
    static void awaitFullIsr(Admin admin, Duration atMost) {
        Awaitility.await("every partition fully in sync").atMost(atMost).pollInterval(Duration.ofSeconds(1))
                .ignoreExceptions().until(() -> outOfSync(admin).isEmpty());
    }

    /** Partitions ({@code topic-N}) with fewer in-sync replicas than replicas. */
    static List<String> outOfSync(Admin admin) throws Exception {
        Set<String> names = admin.listTopics(new ListTopicsOptions().listInternal(true)).names()
                .get(30, TimeUnit.SECONDS);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, TopicDescription> e : admin.describeTopics(names).allTopicNames()
                .get(30, TimeUnit.SECONDS).entrySet()) {
            for (TopicPartitionInfo p : e.getValue().partitions()) {
                if (p.isr().size() < p.replicas().size()) {
                    out.add(e.getKey() + "-" + p.partition());
                }
            }
        }
        return out;
    }

    /** The node id leading {@code topic}'s partition {@code partition}, -1 while it has none. */
    static int leader(Admin admin, String topic, int partition) throws Exception {
        TopicPartitionInfo info = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic).partitions().get(partition);
        return info.leader() == null ? -1 : info.leader().id();
    }

    /**
     * SIGTERM to every node still running, all at once (one by one, the last node would wait for a quorum that is
     * gone until its 60 s are up), then waits for each (SIGKILL after 60 s).
     */
    @Override
    public void close() throws InterruptedException {
        for (ChildBroker n : nodes) {
            ProcessHandle.of(n.pid()).ifPresent(ProcessHandle::destroy);
        }
        for (ChildBroker n : nodes) {
            n.close();
        }
    }
}
