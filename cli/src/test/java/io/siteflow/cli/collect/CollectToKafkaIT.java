package io.siteflow.cli.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.cli.SiteflowCommand;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Heartbeat;
import io.siteflow.model.wire.Topics;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow collect} publishes to Kafka as {@code siteflow capture} does: pmacctd ({@code nfprobe}, IPFIX)
 * exports a capture traffic-synth writes to the collector (a child JVM of the {@code siteflow} command, stopped with
 * SIGTERM by PID), which writes JSON lines and Kafka at once to a real embedded KRaft broker. The records on
 * {@code siteflow.flows} are the JSON lines' records, keyed by the initiator (no {@code -F}); the heartbeat on
 * {@code siteflow.agents} names the listening address and carries the flow records decoded, as the summary says; the
 * last one, sent at the stop after the periodic ones, carries the summary's final datagrams and records.
 */
class CollectToKafkaIT {
    private static final Duration GUARD = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void recordsOnTheFlowsTopicAreTheJsonLinesAndTheHeartbeatCountsTheFlowRecords() throws Exception {
        Path capture = dir.resolve("region2-edge.pcap");
        StretchedClusterScenario.builder().capturePoint(CapturePoint.regionEdge("region2", 0))
                .duration(Duration.ofSeconds(30)).build().write(capture);
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            TopicAdmin.ensureTopics(broker.bootstrap(), SiteflowTopics.SINGLE_NODE);
            Path json = dir.resolve("flows.jsonl");
            Process collect = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), SiteflowCommand.class.getName(),
                    "collect", "--listen", "127.0.0.1:0", "--json=" + json, "--bootstrap", broker.bootstrap(),
                    "--agent", "edge-b", "--spool-dir", dir.resolve("spool").toString()).start();
            StringBuffer err = new StringBuffer();
            CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> CollectChild.readAll(collect, err));
            try {
                int port = await().atMost(GUARD).until(() -> CollectChild.listeningPort(err, reader), p -> p > 0);
                PmacctdExport.export(dir, capture, port, 10);
                // the collector has been idle for a heartbeat interval: two heartbeats in a row say the same
                Heartbeat settled = await().atMost(GUARD).until(() -> settled(broker.bootstrap()), h -> h != null);
                long terminated = System.currentTimeMillis();
                CollectChild.terminate(collect);
                assertThat(collect.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
                reader.get(GUARD.toSeconds(), TimeUnit.SECONDS);
                assertThat(collect.exitValue()).as(err.toString()).isZero();

                List<FlowRecord> lines = new ArrayList<>();
                for (String line : Files.readAllLines(json)) {
                    lines.add(FlowRecordJson.parse(line));
                }
                List<ConsumerRecord<String, String>> published = readAll(broker.bootstrap(), Topics.FLOWS,
                        lines.size());
                Map<String, FlowRecord> byId = new HashMap<>();
                for (ConsumerRecord<String, String> r : published) {
                    FlowRecord f = FlowRecordJson.parse(r.value());
                    assertThat(r.key()).isEqualTo(f.src());
                    byId.put(f.id(), f);
                }
                assertThat(lines).isNotEmpty().allSatisfy(r -> assertThat(r.exporter()).isEqualTo("127.0.0.1"));
                assertThat(byId).hasSize(lines.size());
                assertThat(lines).allSatisfy(r -> assertThat(byId.get(r.id())).isEqualTo(r));

                Matcher records = Pattern.compile("(\\d+) flow records").matcher(err);
                assertThat(records.find()).as(err.toString()).isTrue();
                assertThat(settled.agent()).isEqualTo("edge-b");
                assertThat(settled.iface()).isEqualTo("127.0.0.1:" + port);
                assertThat(settled.received()).isPositive().isEqualTo(Long.parseLong(records.group(1)));
                assertThat(settled.droppedKernel()).isZero();
                assertThat(err.toString()).contains("kafka: " + lines.size() + " records sent, 0 spooled");

                // the last heartbeat is the one sent at the stop, with the summary's final counters
                Heartbeat last = lastHeartbeat(broker.bootstrap());
                Matcher datagrams = Pattern.compile(": (\\d+) datagrams from 1 exporters, 0 refused; "
                        + records.group(1) + " flow records").matcher(err);
                assertThat(datagrams.find()).as(err.toString()).isTrue();
                assertThat(last.time()).isGreaterThanOrEqualTo(terminated);
                assertThat(last.received()).isEqualTo(Long.parseLong(records.group(1)));
                assertThat(last.export()).isEqualTo(new Heartbeat.Export(Long.parseLong(datagrams.group(1)),
                        Long.parseLong(records.group(1)), 0, 0, 0, 0, 0, 0));
            } finally {
                collect.destroyForcibly();
            }
        }
    }

    /** The latest heartbeat on the topic. */
    private static Heartbeat lastHeartbeat(String bootstrap) {
        List<ConsumerRecord<String, String>> all = readAll(bootstrap, Topics.AGENTS, 0);
        return Heartbeat.parse(all.get(all.size() - 1).value()).orElseThrow();
    }

    /** The latest heartbeat of edge-b when the one before it carried the same counts; else null. */
    private static Heartbeat settled(String bootstrap) {
        List<Heartbeat> beats = new ArrayList<>();
        for (ConsumerRecord<String, String> r : readAll(bootstrap, Topics.AGENTS, 0)) {
            Heartbeat.parse(r.value()).ifPresent(beats::add);
        }
        if (beats.size() < 2) {
            return null;
        }
        Heartbeat last = beats.get(beats.size() - 1);
        Heartbeat before = beats.get(beats.size() - 2);
        return last.received() > 0 && last.received() == before.received() ? last : null;
    }

    /** Every record of the topic from the start; with {@code atLeast} > 0, polls until that many came. */
    private static List<ConsumerRecord<String, String>> readAll(String bootstrap, String topic, int atLeast) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            List<ConsumerRecord<String, String>> out = new ArrayList<>();
            long deadline = System.nanoTime() + GUARD.toNanos();
            while (System.nanoTime() < deadline
                    && (atLeast > 0 ? out.size() < atLeast : parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp)))) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
            return out;
        }
    }
}
