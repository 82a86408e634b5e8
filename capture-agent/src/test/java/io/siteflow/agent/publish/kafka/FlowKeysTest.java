package io.siteflow.agent.publish.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.wire.FlowKeys;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.junit.jupiter.api.Test;

/** flow-model's {@link FlowKeys}, beside the Kafka client whose partitioner it must agree with. */
class FlowKeysTest {
    private final Function<FlowRecord, String> key =
            FlowKeys.localServer(List.of(Cidr.parse("10.1.0.0/16"), Cidr.parse("2001:db8::/32")));

    @Test
    void keysByTheInitiatorWhenItIsTheLocalServer() {
        assertThat(key.apply(Flows.flow(0, "10.2.0.20", "10.1.0.10"))).isEqualTo("10.2.0.20");
    }

    @Test
    void keysByTheResponderWhenTheRemoteSiteInitiated() {
        assertThat(key.apply(Flows.flow(0, "10.1.0.10", "10.2.0.20"))).isEqualTo("10.2.0.20");
        assertThat(key.apply(Flows.flow(0, "2001:db8::1", "2001:db9::7"))).isEqualTo("2001:db9::7");
    }

    @Test
    void keysByTheInitiatorWhenBothOrNeitherEndIsRemote() {
        assertThat(key.apply(Flows.flow(0, "10.1.0.10", "10.1.0.11"))).isEqualTo("10.1.0.10");
        assertThat(key.apply(Flows.flow(0, "192.168.0.1", "192.168.0.2"))).isEqualTo("192.168.0.1");
    }

    @Test
    void keysAFileReadWithoutRemoteCidrsByTheAgentAndALiveCaptureByTheInitiator() {
        FlowRecord r = Flows.flow(0, "10.1.0.10", "10.2.0.20");
        assertThat(FlowKeys.forCapture(List.of(), true, "edge-b").apply(r)).isEqualTo("edge-b");
        assertThat(FlowKeys.forCapture(List.of(), false, "edge-b").apply(r)).isEqualTo("10.1.0.10");
        assertThat(FlowKeys.forCapture(List.of(Cidr.parse("10.1.0.0/16")), true, "edge-b").apply(r))
                .isEqualTo("10.2.0.20");
    }

    @Test
    void keysByTheInitiatorWithoutRemoteCidrs() {
        assertThat(FlowKeys.localServer(List.of()).apply(Flows.flow(0, "10.1.0.10", "10.2.0.20")))
                .isEqualTo("10.1.0.10");
    }

    @Test
    void partitionOfAKeyIsTheOneTheProducersDefaultPartitionerChooses() {
        int checked = 0;
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 40; b++) {
                String server = b % 4 == 0 ? "2001:db8::" + Integer.toHexString(a * 40 + b) : "10." + b + ".0." + a;
                byte[] bytes = server.getBytes(StandardCharsets.UTF_8);
                for (int partitions : new int[] {1, 2, 3, 6, 12, 64, 100}) {
                    assertThat(FlowKeys.partition(server, partitions)).as(server + " of " + partitions)
                            .isEqualTo(BuiltInPartitioner.partitionForKey(bytes, partitions));
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(256 * 40 * 7);
        assertThat(FlowKeys.partition("edge-b", 12)).isEqualTo(BuiltInPartitioner.partitionForKey(
                "edge-b".getBytes(StandardCharsets.UTF_8), 12));
    }
}
