package io.siteflow.agent.ebpf;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import io.siteflow.model.IpAddresses;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The program's data-segment RTT ({@code data_rtt()} in flows.bpf.c) on packets handed to it by
 * {@code BPF_PROG_TEST_RUN} (root or CAP_BPF; no interface, no namespace): the flow entry it writes, read back with
 * {@link KernelFlowEntry#decode} and at the C offsets of the pending segments and halves, follows
 * {@code flow.DataRtt.sample}'s rules exactly. The halves are real time between two runs, so the sample is checked
 * against the halves the entry holds, not against a fixed number.
 */
class DataRttProgramIT {
    private static final int ACK = 0x10;
    private static final int PSH_ACK = 0x18;
    /** Side a of the flow key: 10.78.0.1:1521 (the lower end); side b: 10.78.0.2:40000. */
    private static final byte[] A = {10, 78, 0, 1};
    private static final byte[] B = {10, 78, 0, 2};
    /** {@code sizeof(struct __sk_buff)} and the offsets of gso_segs and gso_size in it (the object's BTF). */
    private static final int SKB_SIZE = 192;
    private static final int GSO_SEGS = 164;
    private static final int GSO_SIZE = 176;

    /** {@code bpf_prog_test_run_opts} (libbpf 0.7+): struct bpf_test_run_opts, 80 bytes on 64-bit. */
    interface TestRun extends Library {
        int bpf_prog_test_run_opts(int progFd, Pointer opts);
    }

    private final Libbpf bpf = Libbpf.load();
    private final TestRun testRun = Native.load("libbpf.so.1", TestRun.class);
    private Pointer obj;
    private int in;
    private int out;
    private int flowsA;

    @BeforeEach
    void load() throws Exception {
        Path object = Path.of("target", "data-rtt-it", "flows.bpf.o");
        Files.createDirectories(object.getParent());
        try (InputStream s = DataRttProgramIT.class.getResourceAsStream("/bpf/flows.bpf.o")) {
            Files.copy(s, object, StandardCopyOption.REPLACE_EXISTING);
        }
        obj = bpf.bpf_object__open_file(object.toString(), null);
        assertThat(obj).as("bpf_object__open_file").isNotNull();
        assertThat(bpf.bpf_object__load(obj)).as("bpf_object__load (needs root or CAP_BPF)").isZero();
        in = bpf.bpf_program__fd(bpf.bpf_object__find_program_by_name(obj, FlowProgram.PROGRAM_IN));
        out = bpf.bpf_program__fd(bpf.bpf_object__find_program_by_name(obj, FlowProgram.PROGRAM_OUT));
        flowsA = bpf.bpf_map__fd(bpf.bpf_object__find_map_by_name(obj, "flows_a"));
    }

    @AfterEach
    void close() {
        if (obj != null) {
            bpf.bpf_object__close(obj);
        }
    }

    @Test
    void anAckCoveringTheOtherDirectionsSegmentCompletesAHalfAndTwoHalvesASample() {
        run(in, tcp(B, 40000, A, 1521, 1000, 5000, PSH_ACK, 100)); // data b -> a, end 1100
        Entry e = entry();
        assertThat(e.pendEnd(false)).isEqualTo(1100);
        assertThat(e.pendAb).isZero();
        assertThat(e.flow.dataRttMicros()).isEqualTo(-1);

        run(in, tcp(B, 40000, A, 1521, 1100, 5000, PSH_ACK, 100)); // more data b -> a: one is pending already
        run(out, tcp(A, 1521, B, 40000, 5000, 1099, ACK, 0)); // an ACK one byte short covers nothing
        assertThat(entry().pendBa).isEqualTo(e.pendBa);
        assertThat(entry().halfA).isZero();

        run(out, tcp(A, 1521, B, 40000, 5000, 1100, PSH_ACK, 50)); // covers it, and starts a -> b (end 5050)
        e = entry();
        assertThat(e.pendBa).isZero();
        assertThat(e.halfA).isPositive();
        assertThat(e.pendEnd(true)).isEqualTo(5050);
        assertThat(e.halfB).isZero();
        assertThat(e.flow.dataRttMicros()).as("one half only").isEqualTo(-1);

        run(in, tcp(B, 40000, A, 1521, 1200, 5050, ACK, 0)); // covers a -> b: the first sample
        e = entry();
        assertThat(e.pendAb).isZero();
        assertThat(e.halfB).isPositive();
        long first = e.sampleMicros();
        assertThat(e.flow.dataRttMicros()).isEqualTo(first);

        run(in, tcp(B, 40000, A, 1521, 1200, 5050, PSH_ACK, 100)); // b -> a again, end 1300
        run(out, tcp(A, 1521, B, 40000, 5050, 1300, ACK, 0)); // a new half through a: the second sample
        e = entry();
        assertThat(e.flow.dataRttMicros()).as("the smallest of %d and %d us", first, e.sampleMicros())
                .isEqualTo(Math.min(first, e.sampleMicros()));
        assertThat(List.of(e.flow.abPackets(), e.flow.baPackets())).containsExactly(3L, 4L);
    }

    @Test
    void coversAcrossTheSequenceWrapAndStartsAGsoPacketWithItsFirstSegment() {
        run(in, tcp(B, 40000, A, 1521, 0xFFFF_FFC0, 5000, PSH_ACK, 100)); // end 0x24, past 2^32
        assertThat(entry().pendEnd(false)).isEqualTo(0x24);
        run(out, tcp(A, 1521, B, 40000, 5000, 0x24, ACK, 0));
        assertThat(entry().pendBa).isZero();
        assertThat(entry().halfA).isPositive();

        // a GSO packet of 3 segments of 100 bytes on egress: libpcap sees the first segment first (end 5100)
        runGso(out, tcp(A, 1521, B, 40000, 5000, 0x24, PSH_ACK, 300), 3, 100);
        Entry e = entry();
        assertThat(e.pendEnd(true)).isEqualTo(5100);
        assertThat(e.flow.abPackets()).isEqualTo(4);
        run(in, tcp(B, 40000, A, 1521, 0x24, 5100, ACK, 0)); // the ACK of the first segment completes it
        e = entry();
        assertThat(e.pendAb).isZero();
        assertThat(e.flow.dataRttMicros()).isEqualTo(e.sampleMicros()).isNotNegative();
    }

    /** The entry of the test's flow and the data RTT state after {@code rtt_us}. */
    private record Entry(KernelFlowEntry flow, long pendAb, long pendBa, long halfA, long halfB) {
        long pendEnd(boolean ab) {
            return (ab ? pendAb : pendBa) >>> 32;
        }

        long sampleMicros() {
            return (halfA - 1 + halfB - 1) / 1000;
        }
    }

    private Entry entry() {
        Memory key = new Memory(KernelFlowEntry.KEY_SIZE);
        key.clear();
        key.setLong(8, IpAddresses.v4Lo(0x0A4E_0001));
        key.setLong(24, IpAddresses.v4Lo(0x0A4E_0002));
        key.setShort(32, (short) 1521);
        key.setShort(34, (short) 40000);
        key.setByte(36, (byte) 6);
        Memory value = new Memory(KernelFlowEntry.VALUE_SIZE);
        assertThat(bpf.bpf_map_lookup_elem(flowsA, key, value)).as("the flow's entry in flows_a").isZero();
        ByteBuffer v = value.getByteBuffer(0, KernelFlowEntry.VALUE_SIZE).order(ByteOrder.nativeOrder());
        KernelFlowEntry flow = KernelFlowEntry.decode(key.getByteBuffer(0, KernelFlowEntry.KEY_SIZE), v, 0);
        return new Entry(flow, v.getLong(80), v.getLong(88), v.getInt(96) & 0xFFFF_FFFFL,
                v.getInt(100) & 0xFFFF_FFFFL);
    }

    private void run(int prog, byte[] frame) {
        runGso(prog, frame, 0, 0);
    }

    private void runGso(int prog, byte[] frame, int segs, int size) {
        Memory data = new Memory(frame.length);
        data.write(0, frame, 0, frame.length);
        Memory opts = new Memory(80);
        opts.clear();
        opts.setLong(0, 80);
        opts.setPointer(8, data);
        opts.setInt(24, frame.length);
        Memory ctx = new Memory(SKB_SIZE);
        if (segs > 0) {
            ctx.clear();
            ctx.setInt(GSO_SEGS, segs);
            ctx.setInt(GSO_SIZE, size);
            opts.setPointer(32, ctx);
            opts.setInt(48, SKB_SIZE);
        }
        assertThat(testRun.bpf_prog_test_run_opts(prog, opts)).as("bpf_prog_test_run_opts").isZero();
    }

    /** An Ethernet + IPv4 + TCP frame (20-byte headers) with {@code payload} zero bytes. */
    private static byte[] tcp(byte[] src, int sport, byte[] dst, int dport, long seq, long ack, int flags,
            int payload) {
        ByteBuffer f = ByteBuffer.allocate(14 + 40 + payload);
        f.put(new byte[] {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 8, 0});
        f.put((byte) 0x45).put((byte) 0).putShort((short) (40 + payload)).putShort((short) 1).putShort((short) 0)
                .put((byte) 64).put((byte) 6).putShort((short) 0).put(src).put(dst);
        f.putShort((short) sport).putShort((short) dport).putInt((int) seq).putInt((int) ack).put((byte) 0x50)
                .put((byte) flags).putShort((short) 65535).putShort((short) 0).putShort((short) 0);
        return f.array();
    }
}
