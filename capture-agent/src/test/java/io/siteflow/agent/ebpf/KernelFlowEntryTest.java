package io.siteflow.agent.ebpf;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.IpAddresses;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The flow map's entries as the kernel writes them ({@code struct flow_key}, {@code struct flow_val}). */
class KernelFlowEntryTest {

    /** Writes one entry at index {@code i} of a batch, field by field at the C structs' offsets. */
    static void put(ByteBuffer keys, ByteBuffer values, int i, KernelFlowEntry e) {
        int k = i * KernelFlowEntry.KEY_SIZE;
        keys.putLong(k, e.aHi()).putLong(k + 8, e.aLo()).putLong(k + 16, e.bHi()).putLong(k + 24, e.bLo())
                .putShort(k + 32, (short) e.aPort()).putShort(k + 34, (short) e.bPort()).put(k + 36, (byte) e.proto());
        int v = i * KernelFlowEntry.VALUE_SIZE;
        values.putLong(v, e.firstNs()).putLong(v + 8, e.lastNs()).putLong(v + 16, e.abPackets())
                .putLong(v + 24, e.abIpBytes()).putLong(v + 32, e.abFrameBytes()).putLong(v + 40, e.baPackets())
                .putLong(v + 48, e.baIpBytes()).putLong(v + 56, e.baFrameBytes()).putInt(v + 64, e.abFlags())
                .putInt(v + 68, e.baFlags()).putInt(v + 72, e.firstFlags() | (e.firstFromB() ? 0x10000 : 0))
                .putInt(v + 76, (int) (e.rttMicros() + 1)).putInt(v + 104, (int) (e.dataRttMicros() + 1));
    }

    static ByteBuffer buffer(int entries, int size) {
        return ByteBuffer.allocate(entries * size).order(ByteOrder.nativeOrder());
    }

    @Test
    void decodesEveryFieldOfTheSecondEntryOfABatch() {
        long v4 = IpAddresses.v4Lo(0x0A63_0102); // 10.99.1.2
        KernelFlowEntry first = new KernelFlowEntry(0, IpAddresses.v4Lo(0x0A63_0101), 0, v4, 5201, 40000, 6, 1, 2,
                3, 4, 5, 6, 7, 8, 0x12, 0x10, 0x02, false, 61, 97);
        KernelFlowEntry second = new KernelFlowEntry(0x20010db8_00000000L, 1, 0x20010db8_00000000L, 2, 53, 65535,
                17, 1_000_000_000L, 1_500_000_123L, 10, 1_400, 1_540, 0, 0, 0, 0, 0, 0, true, -1, -1);
        ByteBuffer keys = buffer(2, KernelFlowEntry.KEY_SIZE);
        ByteBuffer values = buffer(2, KernelFlowEntry.VALUE_SIZE);
        put(keys, values, 0, first);
        put(keys, values, 1, second);

        assertThat(KernelFlowEntry.decode(keys, values, 1)).isEqualTo(second);
        assertThat(KernelFlowEntry.decode(keys, values, 0)).isEqualTo(first);
        assertThat(IpAddresses.format(second.aHi(), second.aLo())).isEqualTo("2001:db8::1");
    }

    @Test
    void theOffsetsReadHereAreTheOnesTheCompiledProgramUses() throws Exception {
        byte[] object;
        try (InputStream in = KernelFlowEntryTest.class.getResourceAsStream("/bpf/flows.bpf.o")) {
            object = in.readAllBytes();
        }
        Map<String, BtfStructs.Layout> structs = BtfStructs.read(object);

        assertThat(structs.get("flow_key")).isEqualTo(new BtfStructs.Layout(KernelFlowEntry.KEY_SIZE, Map.of(
                "a_hi", 0, "a_lo", 8, "b_hi", 16, "b_lo", 24, "a_port", 32, "b_port", 34, "proto", 36, "pad", 37)));
        BtfStructs.Layout value = structs.get("flow_val");
        assertThat(value.size()).isEqualTo(KernelFlowEntry.VALUE_SIZE);
        assertThat(value.offsets()).containsExactly(Map.entry("first_ns", 0),
                Map.entry("last_ns", 8), Map.entry("ab_packets", 16),
                Map.entry("ab_ip_bytes", 24), Map.entry("ab_frame_bytes", 32),
                Map.entry("ba_packets", 40), Map.entry("ba_ip_bytes", 48),
                Map.entry("ba_frame_bytes", 56), Map.entry("ab_flags", 64),
                Map.entry("ba_flags", 68), Map.entry("first", 72), Map.entry("rtt_us", 76),
                Map.entry("pend_ab", 80), Map.entry("pend_ba", 88),
                Map.entry("half_a", 96), Map.entry("half_b", 100),
                Map.entry("data_rtt_us", 104), Map.entry("pad", 108));
    }

    @Test
    void readsTheDataRttSlotAsMicrosPlusOneAndIgnoresThePendingSegmentsAndHalves() {
        ByteBuffer keys = buffer(1, KernelFlowEntry.KEY_SIZE);
        ByteBuffer values = buffer(1, KernelFlowEntry.VALUE_SIZE);
        // struct flow_val after rtt_us: pend_ab, pend_ba (u64), half_a, half_b, data_rtt_us, pad (u32)
        values.putLong(80, 0x1234_5678_0000_0100L).putLong(88, -1L).putInt(96, 40_001).putInt(100, 55_001)
                .putInt(108, -1);
        assertThat(KernelFlowEntry.decode(keys, values, 0).dataRttMicros()).isEqualTo(-1);
        values.putInt(104, 96); // 95 us
        assertThat(KernelFlowEntry.decode(keys, values, 0).dataRttMicros()).isEqualTo(95);
        values.putInt(104, 0xFFFF_FFFF);
        assertThat(KernelFlowEntry.decode(keys, values, 0).dataRttMicros()).isEqualTo(0xFFFF_FFFEL);
        assertThat(KernelFlowEntry.decode(keys, values, 0).rttMicros()).isEqualTo(-1);
    }

    @Test
    void readsTheRttSlotAsMicrosPlusOneAndThePortsAsUnsigned() {
        ByteBuffer keys = buffer(1, KernelFlowEntry.KEY_SIZE);
        ByteBuffer values = buffer(1, KernelFlowEntry.VALUE_SIZE);
        keys.putShort(32, (short) 0xFFFF).putShort(34, (short) 0x8000).put(36, (byte) 132);
        values.putInt(72, 0x10012).putInt(76, 0); // SYN|ACK from b; no RTT

        KernelFlowEntry e = KernelFlowEntry.decode(keys, values, 0);

        assertThat(e.aPort()).isEqualTo(65535);
        assertThat(e.bPort()).isEqualTo(32768);
        assertThat(e.proto()).isEqualTo(132);
        assertThat(e.firstFlags()).isEqualTo(0x12);
        assertThat(e.firstFromB()).isTrue();
        assertThat(e.rttMicros()).isEqualTo(-1);
        values.putInt(76, 0xFFFF_FFFF);
        assertThat(KernelFlowEntry.decode(keys, values, 0).rttMicros()).isEqualTo(0xFFFF_FFFEL);
    }

    @Test
    void decodesAnOverflowRecordAsAnEntryOfOnePacketOnItsSide() {
        ByteBuffer rec = ByteBuffer.allocate(KernelFlowEntry.OVERFLOW_SIZE).order(ByteOrder.nativeOrder());
        long a = IpAddresses.v4Lo(0x0A63_0101);
        long b = IpAddresses.v4Lo(0x0A63_0102);
        rec.putLong(0, 0).putLong(8, a).putLong(16, 0).putLong(24, b).putShort(32, (short) 5201)
                .putShort(34, (short) 40000).put(36, (byte) 6).putLong(40, 7_000_000_123L).putLong(48, 4_448)
                .putLong(56, 4_646).putInt(64, 3).putShort(68, (short) 0x18).put(70, (byte) 1);

        assertThat(KernelFlowEntry.overflow(rec)).isEqualTo(new KernelFlowEntry(0, a, 0, b, 5201, 40000, 6,
                7_000_000_123L, 7_000_000_123L, 0, 0, 0, 3, 4_448, 4_646, 0, 0x18, 0x18, true, -1, -1));
        rec.put(70, (byte) 0);
        assertThat(KernelFlowEntry.overflow(rec)).isEqualTo(new KernelFlowEntry(0, a, 0, b, 5201, 40000, 6,
                7_000_000_123L, 7_000_000_123L, 3, 4_448, 4_646, 0, 0, 0, 0x18, 0, 0x18, false, -1, -1));
    }
}
