package io.siteflow.systemtest.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.app.FileReplay;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.cli.CommandRun;
import io.siteflow.systemtest.pipeline.InProcessProcessor;
import io.siteflow.systemtest.pipeline.Offline;
import io.siteflow.systemtest.pipeline.SocketTraffic;
import io.siteflow.lab.LabRecorder;
import io.siteflow.lab.NetnsLab;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Topics;
import io.siteflow.broker.LogCapture;
import io.siteflow.broker.SiteflowAcls;
import io.siteflow.broker.TestPki;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.Verdict;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A production-shaped run under a fault: three {@code siteflow broker} nodes in child JVMs with a SASL_SSL client
 * listener (SCRAM-SHA-512, certificates from a test CA) and Kafka's {@code StandardAuthorizer}, the ACLs of
 * {@link SiteflowAcls} for an agent's and a processor's principal, the siteflow topics at replication factor 3 and
 * {@code min.insync.replicas=2}. An agent captures LIVE on the veth end of a network namespace the test creates
 * ({@link NetnsLab} A; the traffic is the test's own sockets between A and B), publishing as {@code User:agent},
 * while tcpdump writes a capture of the same interface; {@code siteflow process} runs as {@code User:processor}.
 * Brokers, agent and processor all run inside namespace A (its loopback), so nothing leaves the namespaces.
 *
 * <p>Mid-traffic the leader of the {@code siteflow.flows} partition that carries the agent's records is killed with
 * SIGKILL (by PID) and, once a new leader has taken records, restarted. After the traffic: the processor's
 * cumulative verdicts equal {@code siteflow audit} of the tcpdump capture exactly (the verdict JSON: bytes per
 * category and per address, DB share, verdict, top flows, DB connections, the number of round-trip samples) and,
 * round-trip times included, {@code siteflow audit} of the agent's own JSON records; the records on
 * {@code siteflow.flows} are exactly the agent's
 * records (each once) and carry, per category, exactly the packets and bytes of the capture; and no log line of the
 * run (brokers at INFO, the agent's and processor's Kafka clients at INFO) holds a password or a JAAS config.
 *
 * <p>The round-trip figures are not compared with tcpdump's: two packet sockets on one interface share the kernel's
 * time stamp of a packet the host sends, but each stamps a received packet itself when the packet reaches it (on
 * this kernel 0-224 µs apart, measured with two tcpdumps on one veth), so a handshake whose SYN and ACK both arrive
 * from the other namespace can differ by more than a file's 1 µs between two observers of the same packets.
 */
class SecureClusterFailoverIT {
    private static final String APP = "it-failover";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern KAFKA_LINE = Pattern.compile(
            "kafka: (\\d+) records sent, (\\d+) spooled, (\\d+) replayed, (\\d+) dropped, (\\d+) rejected");

    @TempDir
    Path dir;

    private final String adminPassword = "admin-" + UUID.randomUUID();
    private final String agentPassword = "agent-" + UUID.randomUUID();
    private final String processorPassword = "processor-" + UUID.randomUUID();
    private NetnsLab lab;
    private ThreeBrokers brokers;
    private TestPki pki;

    @AfterEach
    void cleanUp() throws InterruptedException {
        if (brokers != null) {
            brokers.close();
        }
        if (lab != null) {
            lab.close(); // also ends, by PID, anything still running inside its namespaces
        }
    }

    @Test
    void liveAgentLosesAndDoublesNothingWhenTheFlowsLeaderIsKilled() throws Exception {
        lab = NetnsLab.create().offloadsOff();
        lab.call(lab.nsA(), () -> {
            run();
            return null;
        });
    }

    private void run() throws Exception {
        pki = TestPki.create(Files.createDirectories(dir.resolve("pki")));
        brokers = ThreeBrokers.start(dir, "secure-cluster-failover", List.of("-Dlogback.configurationFile="
                + childLogging()), List.of("--broker-config", brokerConfig().toString(),
                "--scram-credentials", scramCredentials().toString()));
        String yaml = SocketTraffic.siteModel(lab);
        Path sites = Files.writeString(dir.resolve("sites.yaml"), yaml);
        try (LogCapture logs = LogCapture.of("kafka", "org.apache.kafka", "io.siteflow");
                Admin admin = Admin.create(asAdmin())) {
            checkTopicsAndGrantAcls(admin);
            Path json = dir.resolve("agent.jsonl");
            StringWriter agentErr = new StringWriter();
            AgentRunner agent = new AgentRunner(CaptureOptions.builder().iface(NetnsLab.IF_A)
                    .remoteCidr(lab.addressB() + "/32").agent("edge-a").bootstrap(brokers.bootstrap())
                    .kafkaConfig(properties("agent.properties", client("agent", agentPassword)))
                    .json(json.toString()).spoolDir(dir.resolve("spool")).build(),
                    new PrintWriter(new StringWriter(), true), new PrintWriter(agentErr, true));
            Path pcap = dir.resolve("tcpdump.pcap");
            try (InProcessProcessor processor = InProcessProcessor.start(brokers.bootstrap(), sites,
                    dir.resolve("state"), APP, "--kafka-config", properties("processor.properties",
                    client("processor", processorPassword)).toString())) {
                LabRecorder tcpdump = LabRecorder.start(lab.nsA(), NetnsLab.IF_A, pcap);
                CompletableFuture<Integer> capturing = CompletableFuture.supplyAsync(agent::run,
                        r -> new Thread(r, "agent").start()); // a thread of namespace A, as this one
                try {
                    Awaitility.await("agent capturing").atMost(Duration.ofSeconds(60))
                            .until(() -> capturing.isDone() || agentErr.toString().contains("capturing on sfa0"));
                    assertThat(capturing).as(agentErr::toString).isNotDone();
                    try (SocketTraffic traffic = SocketTraffic.start(lab)) {
                        killAndRestartTheLeader(admin, processor);
                    }
                    awaitQuiet(pcap);
                    assertThat(tcpdump.stop()).as("packets tcpdump dropped").isZero();
                    long packets = replay(pcap, new ArrayList<>()).counters().packets();
                    Awaitility.await("agent received all " + packets + " packets").atMost(Duration.ofSeconds(30))
                            .until(() -> agent.received() >= packets);
                } finally {
                    agent.stop();
                }
                assertThat(capturing.get(120, TimeUnit.SECONDS)).as(agentErr::toString).isZero();
                List<FlowRecord> records = Offline.records(json);
                checkAgentSummary(agentErr.toString(), records.size());

                CommandRun audit = CommandRun.of("audit", pcap.toString(), "--sites", sites.toString(),
                        "--format", "json");
                assertThat(audit.exitCode()).as(audit.err()).isZero();
                List<JsonNode> expected = Offline.list(JSON.readTree(audit.out()).get("verdicts"));
                assertThat(expected).hasSize(1);
                assertThat(expected.get(0).get("crossBytes").asLong()).isGreaterThan(1_000_000);
                Awaitility.await("cumulative verdicts equal the audit of the capture").atMost(Duration.ofMinutes(2))
                        .ignoreExceptions().untilAsserted(() -> assertThat(withoutRtt(Offline.nodes(
                                processor.cumulativeVerdicts()))).isEqualTo(withoutRtt(expected)));
                assertThat(Offline.nodes(processor.cumulativeVerdicts()).get(0).at("/rttMicros/samples").asLong())
                        .as("RTT samples").isPositive().isEqualTo(expected.get(0).at("/rttMicros/samples").asLong());
                CommandRun ofRecords = CommandRun.of("audit", json.toString(), "--sites", sites.toString(),
                        "--format", "json");
                assertThat(ofRecords.exitCode()).as(ofRecords.err()).isZero();
                assertThat(Offline.nodes(processor.cumulativeVerdicts())).as("verdicts, round-trip times included")
                        .isEqualTo(Offline.list(JSON.readTree(ofRecords.out()).get("verdicts")));

                List<FlowRecord> onTopic = flowsTopic();
                assertThat(sorted(onTopic)).as("records on %s", Topics.FLOWS).isEqualTo(sorted(records));
                List<FlowRecord> reference = new ArrayList<>();
                assertThat(replay(pcap, reference).complete()).isTrue();
                Classifier classifier = new Classifier(Offline.model(yaml));
                assertThat(perCategory(classifier, onTopic)).as("packets and bytes per category")
                        .isEqualTo(perCategory(classifier, reference))
                        .containsOnlyKeys(Category.DB.name(), Category.CLUSTER.name());
            }
            assertNoSecret(logs.lines(), agentErr.toString());
        }
    }

    /** The topics are safe for a three-broker cluster; the ACLs of both principals are in force. */
    private void checkTopicsAndGrantAcls(Admin admin) throws Exception {
        brokers.awaitSafeTopics(admin, "--kafka-config", properties("admin.properties", client("admin", adminPassword))
                .toString());
        List<AclBinding> acls = new ArrayList<>(SiteflowAcls.agent("User:agent"));
        acls.addAll(SiteflowAcls.processor("User:processor", APP));
        admin.createAcls(acls).all().get(60, TimeUnit.SECONDS);
        Awaitility.await("ACLs applied").atMost(Duration.ofSeconds(60)).until(() -> admin.describeAcls(
                AclBindingFilter.ANY).values().get(10, TimeUnit.SECONDS).size() == acls.size());
    }

    /**
     * Once the processor counts the agent's records, SIGKILLs the leader of the partition that carries them; when
     * a new leader has taken more of them, restarts the node and waits until every partition is in sync again and
     * records keep coming.
     */
    private void killAndRestartTheLeader(Admin admin, InProcessProcessor processor) throws Exception {
        long first = awaitCounted(processor, 0);
        int partition = carryingPartition(admin);
        int leader = ThreeBrokers.leader(admin, Topics.FLOWS, partition);
        long pid = brokers.node(leader).pid();
        brokers.kill(leader);
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("node %d alive", leader)
                .isFalse();
        Awaitility.await("a new leader of " + Topics.FLOWS + "-" + partition).atMost(Duration.ofMinutes(1))
                .ignoreExceptions().until(() -> {
                    int now = ThreeBrokers.leader(admin, Topics.FLOWS, partition);
                    return now != leader && now != -1;
                });
        long duringOutage = awaitCounted(processor, first);
        brokers.restart(leader);
        ThreeBrokers.awaitFullIsr(admin, Duration.ofMinutes(2));
        awaitCounted(processor, duringOutage);
    }

    /** Waits until the processor's cumulative cross-site bytes exceed {@code than} and returns them. */
    private static long awaitCounted(InProcessProcessor processor, long than) {
        long[] now = {0};
        Awaitility.await("cross bytes counted beyond " + than).atMost(Duration.ofMinutes(1))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
                    now[0] = processor.cumulativeVerdicts().stream().mapToLong(Verdict::crossBytes).sum();
                    return now[0] > than;
                });
        return now[0];
    }

    /** The one partition of {@code siteflow.flows} holding records (the agent keys them all by server A). */
    private static int carryingPartition(Admin admin) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        int partitions = admin.describeTopics(List.of(Topics.FLOWS)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(Topics.FLOWS).partitions().size();
        for (int p = 0; p < partitions; p++) {
            latest.put(new TopicPartition(Topics.FLOWS, p), OffsetSpec.latest());
        }
        List<Integer> used = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet().stream()
                .filter(e -> e.getValue().offset() > 0).map(e -> e.getKey().partition()).toList();
        assertThat(used).as("partitions with records").hasSize(1);
        return used.get(0);
    }

    /** Waits until the capture file has not grown for two seconds (the last FIN and ACK are in it). */
    private static void awaitQuiet(Path pcap) {
        long[] last = {-1};
        Awaitility.await("capture quiet").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    long size = Files.size(pcap);
                    boolean quiet = size == last[0];
                    last[0] = size;
                    return quiet;
                });
    }

    private static void checkAgentSummary(String err, int records) {
        Matcher m = KAFKA_LINE.matcher(err);
        assertThat(m.find()).as(err).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("sent: %s", err).isEqualTo(records);
        assertThat(Long.parseLong(m.group(2))).as("spooled and replayed: %s", err)
                .isEqualTo(Long.parseLong(m.group(3)));
        assertThat(Long.parseLong(m.group(4))).as("dropped: %s", err).isZero();
        assertThat(Long.parseLong(m.group(5))).as("rejected: %s", err).isZero();
    }

    /** No log line holds a password, a store password or a JAAS login; Kafka's config dumps are in (masked). */
    private void assertNoSecret(List<String> inProcess, String agentErr) throws Exception {
        List<String> lines = new ArrayList<>(inProcess);
        lines.addAll(agentErr.lines().toList());
        for (Path log : brokers.logs()) {
            lines.addAll(Files.readAllLines(log, StandardCharsets.UTF_8));
        }
        assertThat(lines).as("log lines").hasSizeGreaterThan(1_000)
                .anyMatch(l -> l.contains("sasl.jaas.config = [hidden]"));
        for (String secret : List.of(adminPassword, agentPassword, processorPassword, pki.password(),
                "ScramLoginModule")) {
            assertThat(lines).as("log lines with %s", secret).noneMatch(l -> l.contains(secret));
        }
    }

    /** A logback configuration for the brokers: Kafka's and siteflow's INFO lines too, into the node's log. */
    private Path childLogging() throws Exception {
        return Files.writeString(dir.resolve("logback-child.xml"), """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="kafka" level="INFO"/>
                  <logger name="org.apache.kafka" level="INFO"/>
                  <logger name="io.siteflow" level="INFO"/>
                  <root level="WARN"><appender-ref ref="OUT"/></root>
                </configuration>
                """);
    }

    /** The SASL_SSL listener, the inter-broker login as admin, the node's TLS stores and the authorizer. */
    private Path brokerConfig() throws Exception {
        Map<String, String> p = new TreeMap<>();
        p.put("listener.security.protocol.map", "CLIENT:SASL_SSL,CONTROLLER:PLAINTEXT");
        p.put("sasl.enabled.mechanisms", "SCRAM-SHA-512");
        p.put("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512");
        p.put("listener.name.client.scram-sha-512.sasl.jaas.config", jaas("admin", adminPassword));
        p.put("ssl.keystore.location", pki.keystore().toString());
        p.put("ssl.keystore.type", "PKCS12");
        p.put("ssl.keystore.password", pki.password());
        p.putAll(trust());
        p.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        p.put("super.users", "User:admin;User:ANONYMOUS");
        return properties("broker.properties", p);
    }

    private Path scramCredentials() throws Exception {
        StringBuilder sb = new StringBuilder();
        for (String[] u : new String[][] {{"admin", adminPassword}, {"agent", agentPassword},
            {"processor", processorPassword}}) {
            sb.append("SCRAM-SHA-512=[name=").append(u[0]).append(",password=").append(u[1]).append("]\n");
        }
        return Files.writeString(dir.resolve("scram.txt"), sb);
    }

    /** A client of the cluster as {@code user}: SASL_SSL, SCRAM-SHA-512, trusting the test CA. */
    private Map<String, String> client(String user, String password) {
        Map<String, String> c = new TreeMap<>(trust());
        c.put("security.protocol", "SASL_SSL");
        c.put("sasl.mechanism", "SCRAM-SHA-512");
        c.put("sasl.jaas.config", jaas(user, password));
        return c;
    }

    /** The admin's client settings with the bootstrap servers, for this test's own admin and consumer. */
    private Map<String, Object> asAdmin() {
        Map<String, Object> c = new HashMap<>(client("admin", adminPassword));
        c.put("bootstrap.servers", brokers.bootstrap());
        return c;
    }

    private Map<String, String> trust() {
        return Map.of("ssl.truststore.location", pki.truststore().toString(), "ssl.truststore.type", "PKCS12",
                "ssl.truststore.password", pki.password());
    }

    private static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    private Path properties(String name, Map<String, String> values) throws Exception {
        Properties p = new Properties();
        p.putAll(values);
        Path file = dir.resolve(name);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            p.store(w, null);
        }
        return file;
    }

    /** Every committed record of {@code siteflow.flows}, read as the admin. */
    private List<FlowRecord> flowsTopic() throws Exception {
        Map<String, Object> conf = asAdmin();
        conf.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<FlowRecord> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(conf, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> parts = c.partitionsFor(Topics.FLOWS, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            Awaitility.await("all of " + Topics.FLOWS).atMost(Duration.ofMinutes(1)).until(() -> {
                for (var r : c.poll(Duration.ofMillis(200))) {
                    out.add(FlowRecordJson.parse(r.value()));
                }
                return parts.stream().allMatch(p -> c.position(p) >= end.get(p));
            });
        }
        return out;
    }

    private static FileReplay.Result replay(Path pcap, List<FlowRecord> into) {
        return FileReplay.run(pcap, "reference", FlowTableConfig.DEFAULTS, FlowSink.to(into::add));
    }

    /** {@code category -> [packets, bytes]} of records, classified with the site model. */
    private static Map<String, List<Long>> perCategory(Classifier classifier, List<FlowRecord> records) {
        Map<String, long[]> sums = new TreeMap<>();
        for (FlowRecord r : records) {
            long[] s = sums.computeIfAbsent(classifier.classify(r).category().name(), k -> new long[2]);
            s[0] += r.totalPackets();
            s[1] += r.totalBytes();
        }
        Map<String, List<Long>> out = new TreeMap<>();
        sums.forEach((k, v) -> out.put(k, List.of(v[0], v[1])));
        return out;
    }

    /** Records as their JSON lines, sorted: a multiset to compare. */
    private static List<String> sorted(List<FlowRecord> records) {
        return records.stream().map(r -> new String(FlowRecordJson.toBytes(r), StandardCharsets.UTF_8)).sorted()
                .toList();
    }

    /**
     * The verdicts without their round-trip times: the agent times packets to the nanosecond, a pcap file to the
     * microsecond, so a live RTT and the same RTT read from tcpdump's file may differ by 1 µs
     * ({@link #assertSameRtt}).
     */
    private static List<JsonNode> withoutRtt(List<JsonNode> verdicts) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode v : verdicts) {
            ObjectNode copy = v.deepCopy();
            copy.remove("rttMicros");
            ((ObjectNode) copy.get("dbCalls")).remove("rttMicros");
            out.add(copy);
        }
        return out;
    }
}
