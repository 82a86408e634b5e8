package io.siteflow.model.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The partition rule, pinned to values Kafka 4.4's {@code Utils.murmur2} gives (capture-agent's {@code FlowKeysTest}
 * compares it with the producer's partitioner over thousands of keys); the key functions are tested there too.
 */
class FlowKeysTest {

    @Test
    void hashesAsKafkasMurmur2() {
        assertThat(FlowKeys.murmur2(bytes("10.2.0.20"))).isEqualTo(-988_035_240);
        assertThat(FlowKeys.murmur2(bytes("10.1.0.10"))).isEqualTo(-1_471_171_256);
        assertThat(FlowKeys.murmur2(bytes("2001:db8::7"))).isEqualTo(-1_858_533_879);
        assertThat(FlowKeys.murmur2(bytes("edge-b"))).isEqualTo(-1_647_133_948);
        assertThat(FlowKeys.murmur2(bytes(""))).isEqualTo(275_646_681);
    }

    @Test
    void placesAKeyAsKafkasDefaultPartitioner() {
        assertThat(FlowKeys.partition("10.2.0.20", 12)).isEqualTo(8);
        assertThat(FlowKeys.partition("10.1.0.10", 12)).isEqualTo(0);
        assertThat(FlowKeys.partition("2001:db8::7", 12)).isEqualTo(5);
        assertThat(FlowKeys.partition("edge-b", 12)).isEqualTo(4);
        assertThat(FlowKeys.partition("10.2.0.20", 1)).isZero();
    }

    @Test
    void refusesNoPartitions() {
        assertThatThrownBy(() -> FlowKeys.partition("10.2.0.20", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("partitions must be at least 1, not 0");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
