package io.siteflow.systemtest.pipeline;

import static io.siteflow.model.wire.Topics.DLQ;
import static io.siteflow.model.wire.Topics.FLOWS;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.synth.SyntheticCluster;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1 000 unreadable values on {@code siteflow.flows} (not JSON, truncated JSON, wrong types, missing fields, bad
 * addresses), mixed with 3 000 real records, on a real broker: every one of them reaches {@code siteflow.dlq}
 * once, with its original key, bytes and the reader's error, and the verdicts are those of the real records
 * alone (the offline audit of the same records).
 */
class GarbageRecordsIT {
    private static final int REAL = 3_000;
    private static final int GARBAGE = 1_000;
    private static final long STEP_MS = 100;
    /** Past the last data window's end plus the 10 s grace. */
    private static final long CLOSE_AT = SyntheticCluster.T0 + REAL * STEP_MS + 70_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** A garbage value and the key it is sent under. */
    record Garbage(String key, byte[] value) {
    }

    @Test
    void sendsEveryUnreadableValueToTheDeadLetterTopicAndCountsOnlyTheRealRecords() throws Exception {
        List<FlowRecord> real = new ArrayList<>(SyntheticCluster.flows(REAL, STEP_MS, "g"));
        List<Garbage> garbage = new ArrayList<>();
        for (int i = 0; i < GARBAGE; i++) {
            garbage.add(garbage(i, real.get(i % REAL)));
        }
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            Path sites = Files.writeString(dir.resolve("sites.yaml"), SyntheticCluster.SITES);
            try (InProcessProcessor p = InProcessProcessor.start(broker.bootstrap(), sites, dir.resolve("state"),
                    "it-garbage")) {
                try (KafkaProducer<byte[], byte[]> producer = Topics.producer(broker.bootstrap())) {
                    for (int n = 0; n < REAL; n++) {
                        Topics.sendAsync(producer, real.get(n));
                        if (n % 3 == 1) {
                            Garbage g = garbage.get(n / 3);
                            producer.send(new ProducerRecord<>(FLOWS, Topics.bytes(g.key()), g.value()));
                        }
                    }
                    List<FlowRecord> closers = SyntheticCluster.closers(CLOSE_AT, "g");
                    closers.forEach(r -> Topics.sendAsync(producer, r));
                    real.addAll(closers);
                    producer.flush();
                }
                AuditReport expected = Offline.audit(SyntheticCluster.SITES, real, 60_000);
                List<Verdict> expectedWindows = Offline.closedBefore(expected, CLOSE_AT);

                List<Verdict> windows = Topics.windowVerdicts(broker.bootstrap(), expectedWindows.size());
                assertThat(Offline.json(windows)).containsExactlyElementsOf(Offline.json(expectedWindows));
                Awaitility.await().atMost(Topics.WAIT).ignoreExceptions().untilAsserted(() -> assertThat(
                        Offline.json(p.cumulativeVerdicts())).containsExactlyElementsOf(Offline.json(expected.verdicts())));

                List<ConsumerRecord<String, byte[]>> dlq = Topics.read(broker.bootstrap(), DLQ,
                        got -> got.size() >= GARBAGE);
                assertThat(dlq).hasSize(GARBAGE);
                assertThat(deadLetters(dlq)).isEqualTo(expectedDeadLetters(garbage));
                assertThat(p.runtime().metrics().deadLetters()).isEqualTo(GARBAGE);
            }
        }
    }

    /** Five kinds in turn, each made from a real record: the reader must refuse every one. */
    private static Garbage garbage(int i, FlowRecord r) {
        String json = new String(FlowRecordJson.toBytes(r), StandardCharsets.UTF_8);
        String value = switch (i % 5) {
            case 0 -> "garbage #" + i + " <not json>";
            case 1 -> json.substring(0, 20 + i % (json.length() - 21));
            case 2 -> json.replaceFirst("\"bytes\":\\d+", "\"bytes\":\"" + i + " bytes\"");
            case 3 -> json.replaceFirst("\"src\":\"[^\"]*\",", "");
            default -> json.replace("\"dst\":\"" + r.dst() + "\"", "\"dst\":\"10.1.0." + (256 + i) + "\"");
        };
        return new Garbage(r.src(), value.getBytes(StandardCharsets.UTF_8));
    }

    /** key, error and original value of every dead letter, counted. */
    private static Map<String, Integer> deadLetters(List<ConsumerRecord<String, byte[]>> dlq) throws Exception {
        Map<String, Integer> out = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : dlq) {
            JsonNode n = JSON.readTree(r.value());
            assertThat(n.get("topic").asText()).isEqualTo(FLOWS);
            String value = new String(Base64.getDecoder().decode(n.get("value").asText()), StandardCharsets.UTF_8);
            out.merge(r.key() + " | " + n.get("error").asText() + " | " + value, 1, Integer::sum);
        }
        return out;
    }

    /** The same, from what was sent, with the error the reader gives for each value. */
    private static Map<String, Integer> expectedDeadLetters(List<Garbage> garbage) {
        Map<String, Integer> out = new TreeMap<>();
        for (Garbage g : garbage) {
            String value = new String(g.value(), StandardCharsets.UTF_8);
            out.merge(g.key() + " | " + error(g.value()) + " | " + value, 1, Integer::sum);
        }
        return out;
    }

    private static String error(byte[] value) {
        try {
            Classifier.flowOf(FlowRecordJson.parse(value));
        } catch (FlowRecordFormatException e) {
            return e.getMessage();
        } catch (IllegalArgumentException e) {
            return "address: " + e.getMessage();
        }
        throw new AssertionError("readable: " + new String(value, StandardCharsets.UTF_8));
    }
}
