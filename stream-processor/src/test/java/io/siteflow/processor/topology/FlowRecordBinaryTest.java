package io.siteflow.processor.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.CallHistogram;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.L7Protocol;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class FlowRecordBinaryTest {
    private static final FlowRecord FULL = FlowRecord.builder().id("run7-123456789").agent("wls3-agent").iface("ens3")
            .time(1_764_000_000_123L, 1_764_000_000_456L).endpoints(6, "10.2.0.20", 40_001, "fe80::1", 1521)
            .forward(9_500, 12, 9_800, 0x1b).reverse(3_000_000_000L, 9, 3_000_000_500L, 0x12).rttMicros(6_512L)
            .dataRttMicros(6_498L).l7(L7Protocol.ORACLE_TNS).sni("db.example.ü")
            .db(7, 66_000, CallHistogram.of(Map.of(444, 3L, 463, 4L))).isFinal(true).build();
    private static final FlowRecord SPARSE = FlowRecord.builder().id("r-1").agent("edge").iface("").time(0, 0)
            .endpoints(17, "10.2.0.20", 0, "10.1.0.10", 0).build();
    /** A protocol name this version does not list (a newer agent's), a data RTT without a handshake RTT. */
    private static final FlowRecord UNLISTED_L7 = FlowRecord.builder().id("run8-1").agent("wls3").iface("ens3")
            .time(1_764_000_000_000L, 1_764_000_001_000L).endpoints(6, "10.2.0.20", 41_001, "10.1.0.10", 6379)
            .forward(1000, 10, 1140, 0x18).reverse(2000, 10, 2140, 0x18).dataRttMicros(6_400L).l7("redis").build();

    /** What siteflow collect writes: exporter, observation domain (the largest there is) and sampling rate. */
    private static final FlowRecord EXPORTED = FlowRecord.builder().id("edge-b-mj2x1a-7").agent("edge-b")
            .iface("0.0.0.0:2055").time(1_764_000_000_000L, 1_764_000_009_870L)
            .endpoints(6, "10.2.0.20", 40_112, "10.1.0.10", 1521).forward(2_106_155_100L, 1_520_300, 0, 27)
            .reverse(9_830_451_200L, 7_021_100, 0, 26).exporter("192.0.2.1", 4_294_967_295L).sampled(100)
            .isFinal(true).build();

    @Test
    void readsBackEveryFieldOfAFullAndASparseRecord() {
        assertThat(FlowRecordBinary.read(FlowRecordBinary.write(FULL))).isEqualTo(FULL);
        assertThat(FlowRecordBinary.read(FlowRecordBinary.write(SPARSE))).isEqualTo(SPARSE);
    }

    @Test
    void writesAndReadsTheBytesThatRunningProcessorsLeftOnTheRepartitionTopic() {
        // golden bytes written by the codec before the record was grouped (issue 24 point 8): an upgraded instance
        // reads what an older one wrote to by-server, and writes what an older one reads
        Map<String, FlowRecord> golden = Map.of("flow-record-full.bin.hex", FULL, "flow-record-sparse.bin.hex", SPARSE,
                "flow-record-l7-unlisted.bin.hex", UNLISTED_L7, "flow-record-export.bin.hex", EXPORTED);
        golden.forEach((fixture, r) -> {
            String hex = hex(fixture);
            assertThat(HexFormat.of().formatHex(FlowRecordBinary.write(r))).as(fixture).isEqualTo(hex);
            assertThat(FlowRecordBinary.read(HexFormat.of().parseHex(hex))).as(fixture).isEqualTo(r);
        });
    }

    private static String hex(String fixture) {
        try (InputStream in = FlowRecordBinaryTest.class.getResourceAsStream(fixture)) {
            assertThat(in).as(fixture).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void carriesTheFlowExportFieldsAfterTheDbCallsEachBehindABitOfItsOwn() {
        // the null set's bits 32, 64 and 128: exporter, observationDomain, sampled present; the older layout ends
        // with the id (no data RTT, no DB calls here), so these are the record's last 4 + 9 + 8 + 4 bytes
        byte[] b = FlowRecordBinary.write(EXPORTED);
        assertThat(b[1] & 0xE0).isEqualTo(0xE0);
        assertThat(HexFormat.of().formatHex(b, b.length - 25, b.length)).isEqualTo("00000009" + "3139322e302e322e31"
                + "00000000ffffffff" + "00000064");
        assertThat(FlowRecordBinary.read(b)).isEqualTo(EXPORTED);
        FlowRecord exporterOnly = EXPORTED.toBuilder().exporter("2001:db8::1", null).sampled(null).build();
        assertThat(FlowRecordBinary.read(FlowRecordBinary.write(exporterOnly))).isEqualTo(exporterOnly);
        assertThat(FlowRecordBinary.write(exporterOnly)[1] & 0xE0).isEqualTo(0x20);
    }

    @Test
    void refusesASamplingRateBelowTwoNamingTheTopic() {
        byte[] b = FlowRecordBinary.write(EXPORTED);
        java.nio.ByteBuffer.wrap(b).putInt(b.length - 4, 1);
        assertThatThrownBy(() -> TopologySpec.FLOW_RECORD.deserializer().deserialize("t", b))
                .isInstanceOf(SerializationException.class)
                .hasMessage("t: sampled 1 is not a sampling rate (2 or more)");
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
