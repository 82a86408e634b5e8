package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeadLetterTest {
    @TempDir
    Path dir;
    Driver d;

    @BeforeEach
    void start() {
        d = new Driver(dir).withSites(Flows.SITES_YAML);
    }

    @AfterEach
    void stop() {
        d.close();
    }

    @Test
    void sendsEachKindOfUnreadableValueToTheDeadLetterTopicAndGoesOn() {
        String good = FlowRecordJson.toJson(flow().at(T0).id("r-1").bytes(2000, 0).build());
        String noId = good.replaceAll(",?\"id\":\"r-1\"", "");
        String wrongType = good.replace("\"start\":" + T0, "\"start\":\"soon\"");
        String badAddress = good.replace("\"dst\":\"10.1.0.10\"", "\"dst\":\"10.1.0.999\"");

        d.sendRaw("k1", bytes("hello"));
        d.sendRaw("k2", bytes(noId));
        d.sendRaw("k3", bytes(wrongType));
        d.sendRaw("k4", bytes(badAddress));
        d.flows.pipeInput("k5".getBytes(StandardCharsets.UTF_8), (byte[]) null);
        d.sendRaw("10.2.0.20", bytes(good));

        List<KeyValue<byte[], String>> dlq = d.dlq.readKeyValuesToList();
        assertThat(dlq).extracting(kv -> new String(kv.key, StandardCharsets.UTF_8))
                .containsExactly("k1", "k2", "k3", "k4", "k5");
        assertThat(dlq).extracting(kv -> kv.value).containsExactly(
                letter(codecError("hello"), 0, "hello"),
                letter("missing field \\\"id\\\"", 1, noId),
                letter("field \\\"start\\\": expected an integer, found VALUE_STRING", 2, wrongType),
                letter("address: \\\"10.1.0.999\\\" is not an IPv4 address: 999 is above 255", 3, badAddress),
                "{\"error\":\"no value (tombstone)\",\"topic\":\"siteflow.flows\",\"partition\":0,\"offset\":4,"
                        + "\"value\":null}");
        assertThat(d.metrics.deadLetters()).isEqualTo(5);
        assertThat(d.metrics.recordsIn()).isEqualTo(6);
        assertThat(d.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(2000);
    }

    @Test
    void sendsARecordStartingMoreThanFiveMinutesAheadOfTheClockToTheDeadLetterTopicWithTheReason() {
        d.close();
        d = new Driver(TopologyConfig.DEFAULTS, dir.resolve("clock"), Instant.ofEpochMilli(T0)).withSites(Flows.SITES_YAML);
        String ahead = FlowRecordJson.toJson(flow().at(T0 + 3_600_000).id("r-ahead").bytes(5000, 0).build());
        String nearlyAhead = FlowRecordJson.toJson(flow().at(T0 + 300_000).id("r-near").bytes(2000, 0).build());

        d.sendRaw("10.2.0.20", bytes(ahead));
        d.sendRaw("10.2.0.20", bytes(nearlyAhead));

        assertThat(d.dlq.readKeyValuesToList()).extracting(kv -> kv.value).containsExactly(letter(
                "start 2025-11-24T17:00:00Z is PT1H ahead of this processor's clock (2025-11-24T16:00:00Z; at most "
                        + "PT5M is used): is the agent's clock wrong?", 0, ahead));
        assertThat(d.metrics.ahead()).isEqualTo(1);
        assertThat(d.metrics.deadLetters()).isEqualTo(1);
        assertThat(d.cumulative("10.2.0.20|region1").crossBytes()).isEqualTo(2000);
    }

    @Test
    void garbageDoesNotMoveStreamTime() {
        d.send(flow().at(T0).bytes(2000, 0));
        d.sendRaw("k1", bytes("{\"start\": 99999999999999, \"oops\""));
        d.send(flow().at(T0 + 30_000).bytes(2000, 0));
        d.send(flow().at(T0 + 70_000).bytes(1, 0));

        assertThat(d.verdicts()).hasSize(1);
        assertThat(d.metrics.late()).isZero();
    }

    private static String letter(String error, int offset, String value) {
        return "{\"error\":\"" + error + "\",\"topic\":\"siteflow.flows\",\"partition\":0,\"offset\":" + offset
                + ",\"value\":\"" + Base64.getEncoder().encodeToString(bytes(value)) + "\"}";
    }

    /** Jackson's own wording for text that is not JSON, as the codec reports it. */
    private static String codecError(String text) {
        return catchThrowableOfType(FlowRecordFormatException.class, () -> FlowRecordJson.parse(text)).getMessage()
                .replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
