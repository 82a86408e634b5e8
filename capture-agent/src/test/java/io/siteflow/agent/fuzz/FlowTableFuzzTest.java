package io.siteflow.agent.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import io.siteflow.agent.flow.CollectingSink;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.signature.SignatureL7Tracker;
import io.siteflow.model.FlowRecord;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;

/**
 * Fuzz harness for the flow table ({@link FlowTable}) fed packets the decoder decoded, as the pipeline does.
 * The input is a script of steps, each starting with an op byte: TCP or UDP frames between a few clients and
 * servers (IPv4 or IPv6, any flags, payload taken from the input, time moving forward or back), raw Ethernet
 * frames, and idle time. The table holds at most 16 flows with short timeouts, so eviction, interim and final
 * records all happen. Invariants: the table never holds more than its bound; every record's counters are not
 * negative and its start is not after its end; record ids are unique; after {@link FlowTable#flushAll()} the
 * table is empty and the records' deltas add up to exactly the packets, IP bytes and frame bytes offered.
 * Seeds: {@code src/test/resources/io/siteflow/agent/fuzz/FlowTableFuzzTestInputs/}; docs/FUZZING.md.
 */
class FlowTableFuzzTest {
    static final int MAX_FLOWS = 16;
    private static final long T0 = 1_764_000_000_000_000_000L;
    private static final int[] SERVER_PORTS = {1521, 7001, 8080, 443, 5432, 3306, 9000, 53};
    /** [IPv6][client][port]: 8 clients on 8 ports each, in IPv4 and in IPv6 (built once: parsing costs). */
    private static final Endpoint[][][] CLIENTS = new Endpoint[2][8][8];
    /** [IPv6][server]: 8 servers, each on its own service port. */
    private static final Endpoint[][] SERVERS = new Endpoint[2][8];

    static {
        for (int i = 0; i < 8; i++) {
            for (int port = 0; port < 8; port++) {
                CLIENTS[0][i][port] = Endpoint.of("10.2.0." + (20 + i), 40000 + port);
                CLIENTS[1][i][port] = Endpoint.of("fd00:2::" + (i + 1), 40000 + port);
            }
            SERVERS[0][i] = Endpoint.of("10.1.0." + (10 + i), SERVER_PORTS[i]);
            SERVERS[1][i] = Endpoint.of("fd00:1::" + (i + 1), SERVER_PORTS[i]);
        }
    }
    private static final FlowTableConfig CONFIG = FlowTableConfig.DEFAULTS.withMaxFlows(MAX_FLOWS)
            .withActiveTimeout(Duration.ofSeconds(2)).withIdleTimeout(Duration.ofSeconds(5));

    private final PacketDecoder decoder = new PacketDecoder();

    @FuzzTest
    void keepsTotalsExactAndStaysBounded(byte[] script) {
        CollectingSink sink = new CollectingSink();
        List<FlowRecord> records = sink.records;
        FlowTable table = new FlowTable(CONFIG, new RecordFactory("fuzz", "eth0", "run"), sink,
                new SignatureL7Tracker());
        long packets = 0;
        long ipBytes = 0;
        long frameBytes = 0;
        long now = T0;
        Packet p = new Packet();
        int i = 0;
        while (i + 4 <= script.length) {
            int op = script[i] & 0xFF;
            int a = script[i + 1] & 0xFF;
            int b = script[i + 2] & 0xFF;
            int n = Math.min(script[i + 3] & 0xFF, script.length - i - 4);
            byte[] body = Arrays.copyOfRange(script, i + 4, i + 4 + n);
            i += 4 + n;
            now += (long) (byte) b * 50_000_000L;
            if ((op & 3) == 3) {
                table.advanceTime(now);
                continue;
            }
            byte[] frame = (op & 3) == 2 ? body : frame(op, a, b, body);
            if (decoder.decode(1, frame, 0, frame.length, frame.length, p) != DecodeStatus.IP) {
                continue;
            }
            table.offer(p, now, frame.length, frame);
            packets++;
            ipBytes += p.ipBytes;
            frameBytes += frame.length;
            assertThat(table.size()).isBetween(1, MAX_FLOWS);
        }
        table.flushAll();

        assertThat(table.size()).isZero();
        for (FlowRecord r : records) {
            long least = Arrays.stream(new long[] {r.bytes(), r.packets(), r.rbytes(), r.rpackets(), r.frameBytes(),
                r.rframeBytes()}).min().getAsLong();
            assertThat(least).as(r.toString()).isNotNegative();
            assertThat(r.start()).as(r.toString()).isLessThanOrEqualTo(r.end());
        }
        assertThat(new HashSet<>(records.stream().map(FlowRecord::id).toList())).hasSize(records.size());
        assertThat(records.stream().mapToLong(FlowRecord::totalPackets).sum()).isEqualTo(packets);
        assertThat(records.stream().mapToLong(FlowRecord::totalBytes).sum()).isEqualTo(ipBytes);
        assertThat(records.stream().mapToLong(r -> r.frameBytes() + r.rframeBytes()).sum()).isEqualTo(frameBytes);
    }

    /** op bit 0: UDP; bits 2-4: client; bits 5-7: server; a: bit 0 from the server, bit 1 IPv6, bits 2-4 client port, rest TCP flags. */
    private static byte[] frame(int op, int a, int b, byte[] payload) {
        int v6 = (a & 2) >>> 1;
        Endpoint c = CLIENTS[v6][op >>> 2 & 7][a >>> 2 & 7];
        Endpoint s = SERVERS[v6][op >>> 5];
        Endpoint src = (a & 1) == 0 ? c : s;
        Endpoint dst = (a & 1) == 0 ? s : c;
        if ((op & 1) != 0) {
            return Frames.udp(src, dst, b, payload, 0, payload.length);
        }
        int flags = (a >>> 5) | (b & 0x18);
        return Frames.tcp(src, dst, b, new Frames.TcpHeader(b * 1000L, b * 7L, flags, 65535), payload, 0,
                payload.length);
    }
}
