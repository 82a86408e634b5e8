package io.siteflow.processor.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.util.Arrays;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class FlowRecordBinaryTest {
    private static final FlowRecord FULL = new FlowRecord(1, "wls3-agent", "ens3", 1_764_000_000_123L,
            1_764_000_000_456L, 6, "10.2.0.20", 40_001, "fe80::1", 1521, 9_500, 12, 3_000_000_000L, 9, 9_800, 3_000_000_500L,
            0x1b, 0x12, 6_512L, "oracle-tns", "db.example.ü", true, "run7-123456789", 6_498L, 7, 66_000,
            io.siteflow.model.CallHistogram.of(java.util.Map.of(444, 3L, 463, 4L)));
    private static final FlowRecord SPARSE = new FlowRecord(1, "edge", "", 0, 0, 17, "10.2.0.20", 0, "10.1.0.10", 0,
            0, 0, 0, 0, 0, 0, 0, 0, null, null, null, false, "r-1", null);

    @Test
    void readsBackEveryFieldOfAFullAndASparseRecord() {
        assertThat(FlowRecordBinary.read(FlowRecordBinary.write(FULL))).isEqualTo(FULL);
        assertThat(FlowRecordBinary.read(FlowRecordBinary.write(SPARSE))).isEqualTo(SPARSE);
    }

    @Test
    void isSmallerThanTheJson() {
        assertThat(FlowRecordBinary.write(FULL)).hasSize(246);
        assertThat(FlowRecordJson.toBytes(FULL)).hasSize(478);
    }

    @Test
    void theSerdeStillReadsJsonLeftOnTheTopicByAnEarlierVersion() {
        byte[] json = FlowRecordJson.toBytes(FULL);
        assertThat(TopologySpec.FLOW_RECORD.deserializer().deserialize("t", json)).isEqualTo(FULL);
        assertThat(TopologySpec.FLOW_RECORD.deserializer().deserialize("t",
                TopologySpec.FLOW_RECORD.serializer().serialize("t", FULL))).isEqualTo(FULL);
    }

    @Test
    void namesTheTopicWhenTheBytesAreCutShortOrUnknown() {
        byte[] b = FlowRecordBinary.write(FULL);
        assertThatThrownBy(() -> TopologySpec.FLOW_RECORD.deserializer().deserialize("app-by-server-repartition",
                Arrays.copyOf(b, 20)))
                .isInstanceOf(SerializationException.class)
                .hasMessage("app-by-server-repartition: binary flow record cut short (20 bytes)");
        assertThatThrownBy(() -> TopologySpec.FLOW_RECORD.deserializer().deserialize("t", new byte[] {7, 0}))
                .isInstanceOf(SerializationException.class)
                .hasMessage("t: not a binary flow record (first byte 7)");
    }
    @Test
    void refusesADbCallsBlockThatWouldNotWriteBackTheSame() {
        // found by bench/fuzz.sh (FlowRecordBinaryFuzzTest): a block with 0 calls read, then vanished on writing
        byte[] b = FlowRecordBinary.write(FULL);
        int block = b.length - (8 + 8 + 4 + 2 * 12);
        java.nio.ByteBuffer.wrap(b).putLong(block, 0);
        assertThatThrownBy(() -> TopologySpec.FLOW_RECORD.deserializer().deserialize("t", b))
                .isInstanceOf(SerializationException.class)
                .hasMessage("t: DB calls block with dbCalls 0 and dbCallMicros 66000 (a block is written only for "
                        + "dbCalls > 0, dbCallMicros >= 0)");
        java.nio.ByteBuffer.wrap(b).putLong(block, 8);
        assertThatThrownBy(() -> TopologySpec.FLOW_RECORD.deserializer().deserialize("t", b))
                .isInstanceOf(SerializationException.class)
                .hasMessage("t: 7 calls in the buckets, but dbCalls is 8");
    }
}
