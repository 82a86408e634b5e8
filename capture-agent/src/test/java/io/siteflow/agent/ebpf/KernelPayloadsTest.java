package io.siteflow.agent.ebpf;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.signature.SignatureL7Tracker;
import io.siteflow.model.CallHistogram;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import io.siteflow.synth.T3Payloads;
import io.siteflow.synth.TnsPayloads;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The payloads ring buffer's records give a kernel flow the packet path's {@code l7}, {@code sni} and DB calls. Each
 * scenario is one conversation of Ethernet/IPv4/TCP frames fed two ways: to the packet path's {@link FlowTable} with
 * the signature tracker (decoded at a snap length of 256), and as the records {@code flows.bpf.c}'s
 * {@code payload()} sends for it (the frame's first 256 bytes of each direction's first 4 payload segments, then a
 * direction-change record at each change of direction whose sequence end advances) to {@link KernelFlows}. The
 * records must agree field by field; the kernel half is checked on a live kernel by traffic-lab's EbpfParityIT.
 */
class KernelPayloadsTest {
    private static final long MS = 1_000_000L;
    /** Kernel time 0 is this epoch ns. */
    private static final long WALL = 1_764_000_000_000L * MS;
    private static final int SNAP = 256;
    private static final Endpoint CLIENT = Endpoint.of("10.2.0.20", 40112); // side b (the higher address)
    private static final Endpoint SERVER_TNS = Endpoint.of("10.1.0.10", 1521);
    private static final Endpoint SERVER_TLS = Endpoint.of("10.1.0.10", 443);
    private static final Endpoint SERVER_T3 = Endpoint.of("10.1.0.10", 7001);

    private final Random random = new Random(26);
    private final List<FlowRecord> packetPath = new ArrayList<>();
    private final List<FlowRecord> kernelPath = new ArrayList<>();
    private final List<String> told = new ArrayList<>();

    /** One conversation, kept as frames with their times, and as the kernel's records. */
    private final class Conversation {
        final Endpoint server;
        final List<byte[]> frames = new ArrayList<>();
        final List<Long> times = new ArrayList<>();
        final List<KernelPayload> records = new ArrayList<>();
        long clientSeq = 1000;
        long serverSeq = 9000;
        // the kernel's l7state
        final int[] sent = new int[2];
        final long[] end = new long[2];
        final boolean[] known = new boolean[2];
        int lastDir = -1;
        long lastNs;

        Conversation(Endpoint server) {
            this.server = server;
        }

        Conversation send(boolean fromClient, long ms, byte[] payload) {
            long seq = fromClient ? clientSeq : serverSeq;
            return sendAt(fromClient, ms, seq, payload);
        }

        Conversation sendAt(boolean fromClient, long ms, long seq, byte[] payload) {
            long ack = fromClient ? serverSeq : clientSeq;
            byte[] frame = Frames.tcp(fromClient ? CLIENT : server, fromClient ? server : CLIENT, 1,
                    new Frames.TcpHeader(seq, ack, Frames.ACK | Frames.PSH, 64240), payload, 0, payload.length);
            long t = ms * MS;
            frames.add(frame);
            times.add(t);
            kernel(fromClient, t, seq, payload.length, frame);
            if (fromClient) {
                clientSeq = Math.max(clientSeq, seq + payload.length);
            } else {
                serverSeq = Math.max(serverSeq, seq + payload.length);
            }
            return this;
        }

        /** flows.bpf.c payload(): the client is side b (the higher address), so its segments go b -> a. */
        private void kernel(boolean fromClient, long t, long seq, int len, byte[] frame) {
            int d = fromClient ? 1 : 0;
            boolean runStart = false;
            long prev = 0;
            long e = (seq + len) & 0xFFFF_FFFFL;
            if (!known[d] || (int) (e - end[d]) > 0) {
                end[d] = e;
                known[d] = true;
                if (lastDir >= 0 && lastDir != d) {
                    runStart = true;
                    prev = lastNs;
                }
                lastDir = d;
                lastNs = t;
            }
            byte[] bytes = null;
            if (sent[d] < KernelPayload.BUDGET) {
                sent[d]++;
                bytes = Arrays.copyOf(frame, Math.min(frame.length, SNAP));
            } else if (!runStart) {
                return;
            }
            records.add(new KernelPayload(0, IpAddresses.v4Lo(0x0A01_000A), 0, IpAddresses.v4Lo(0x0A02_0014),
                    server.port(), CLIENT.port(), 6, t, prev, frame.length, bytes, fromClient, runStart));
        }

        /** The packet path's record and the kernel path's, after the same conversation. */
        List<FlowRecord> bothWays(boolean keepSni) {
            FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS, new RecordFactory("wls3", "ens3", "run"),
                    FlowSink.to(packetPath::add), new SignatureL7Tracker(keepSni));
            PacketDecoder decoder = new PacketDecoder();
            Packet p = new Packet();
            for (int i = 0; i < frames.size(); i++) {
                byte[] f = frames.get(i);
                assertThat(decoder.decode(1, f, 0, Math.min(f.length, SNAP), f.length, p)).isEqualTo(DecodeStatus.IP);
                table.offer(p, WALL + times.get(i), f.length, f);
            }
            table.flushAll();
            KernelFlows flows = new KernelFlows(FlowTableConfig.DEFAULTS, new RecordFactory("wls3", "ens3", "run"),
                    FlowSink.to(kernelPath::add), keepSni, new KernelFlows.Decisions() {
                        @Override
                        public void verdict(KernelFlows.Key key, int verdict) {
                            told.add(key.ports() + " verdict " + verdict);
                        }

                        @Override
                        public void ended(KernelFlows.Key key) {
                            told.add(key.ports() + " ended");
                        }
                    });
            // the flow's entry: first packet from the client (b), no SYN seen (a flow already running)
            flows.merge(new KernelFlowEntry(0, IpAddresses.v4Lo(0x0A01_000A), 0, IpAddresses.v4Lo(0x0A02_0014),
                    server.port(), CLIENT.port(), 6, times.get(0), times.get(times.size() - 1), 1, 1, 1, 1, 1, 1,
                    0x18, 0x18, 0x18, true, -1, -1), WALL);
            records.forEach(flows::payload);
            flows.settle();
            flows.flushAll();
            assertThat(packetPath).hasSize(1);
            assertThat(kernelPath).hasSize(1);
            return List.of(packetPath.get(0), kernelPath.get(0));
        }
    }

    private static void assertSamePayloadFields(List<FlowRecord> both) {
        FlowRecord pcap = both.get(0);
        FlowRecord kernel = both.get(1);
        assertThat(kernel.l7()).isEqualTo(pcap.l7());
        assertThat(kernel.sni()).isEqualTo(pcap.sni());
        assertThat(kernel.db()).isEqualTo(pcap.db());
        assertThat(kernel.src() + ":" + kernel.srcPort()).isEqualTo(pcap.src() + ":" + pcap.srcPort());
    }

    @Test
    void tnsCallsAreCountedAndTimedFromTheDirectionChangesAsThePacketPathTimesThem() {
        Conversation c = new Conversation(SERVER_TNS);
        c.send(true, 0, TnsPayloads.connect("db1", 1521, "orcl")).send(false, 2, TnsPayloads.accept());
        // six calls after the handshake: requests of one to three segments, responses of one to six
        long t = 10;
        long[] micros = new long[6];
        for (int call = 0; call < 6; call++) {
            for (int s = 0; s <= call % 3; s++) {
                c.send(true, t++, TnsPayloads.data(random, 400, 3));
            }
            long service = 3 + call * 7L; // from the last request segment (t - 1) to the first response (t + service)
            micros[call] = (service + 1) * 1000;
            t += service - 1;
            for (int s = 0; s <= call; s++) {
                c.send(false, ++t, TnsPayloads.data(random, 1400, 8));
            }
            t += 5;
        }
        List<FlowRecord> both = c.bothWays(true);

        assertSamePayloadFields(both);
        FlowRecord kernel = both.get(1);
        assertThat(kernel.l7().wireName()).isEqualTo("oracle-tns");
        // the connect and its accept (2 ms), then the six calls: last request segment to first response segment
        assertThat(kernel.db().calls()).isEqualTo(7);
        assertThat(kernel.db().micros()).isEqualTo(2_000 + Arrays.stream(micros).sum());
        Map<Integer, Long> h = new TreeMap<>();
        h.merge(CallHistogram.bucketOf(2_000), 1L, Long::sum);
        Arrays.stream(micros).forEach(us -> h.merge(CallHistogram.bucketOf(us), 1L, Long::sum));
        assertThat(kernel.db().histogram()).isEqualTo(CallHistogram.of(h));
        // 13 changes of direction (the accept, then a request run and a response run per call): the first 5 in the
        // 8 payload records (4 a direction), the other 8 as direction-change records without bytes
        assertThat(c.records).hasSize(16);
        assertThat(c.records.stream().filter(r -> r.frame() == null)).hasSize(8).allMatch(KernelPayload::runStart);
        assertThat(c.records.stream().filter(KernelPayload::runStart)).hasSize(13);
        assertThat(told).containsExactly((1521 << 16 | 40112) + " verdict 1", (1521 << 16 | 40112) + " ended");
    }

    @Test
    void aRetransmittedRequestNeitherStartsNorMovesACall() {
        Conversation c = new Conversation(SERVER_TNS);
        c.send(true, 0, TnsPayloads.connect("db1", 1521, "orcl")).send(false, 1, TnsPayloads.accept());
        for (int i = 0; i < 4; i++) { // spend the budget of both directions
            c.send(true, 10 + 10 * i, TnsPayloads.data(random, 100, 3)).send(false, 11 + 10 * i,
                    TnsPayloads.data(random, 100, 8));
        }
        long seq = c.clientSeq;
        byte[] request = TnsPayloads.data(random, 300, 3);
        c.send(true, 100, request).sendAt(true, 140, seq, request).send(false, 150, TnsPayloads.data(random, 90, 8));
        List<FlowRecord> both = c.bothWays(true);

        assertSamePayloadFields(both);
        assertThat(both.get(1).db().calls()).isEqualTo(6);
        assertThat(both.get(1).db().micros()).isEqualTo(1_000 + 4 * 1_000 + 50_000);
    }

    @Test
    void tlsClientHelloGivesTlsAndTheServerNameUnlessNoSni() {
        byte[] hello = clientHello("db-admin.region1.example");
        Conversation c = new Conversation(SERVER_TLS);
        c.send(true, 0, hello).send(false, 1, new byte[] {0x16, 3, 3, 0, 4, 2, 0, 0, 0});
        List<FlowRecord> both = c.bothWays(true);

        assertSamePayloadFields(both);
        assertThat(both.get(1).l7().wireName()).isEqualTo("tls");
        assertThat(both.get(1).sni()).isEqualTo("db-admin.region1.example");
        assertThat(both.get(1).db().calls()).isZero();
        assertThat(told).containsExactly((443 << 16 | 40112) + " verdict 2", (443 << 16 | 40112) + " ended");

        packetPath.clear();
        kernelPath.clear();
        Conversation quiet = new Conversation(SERVER_TLS);
        quiet.send(true, 0, hello);
        List<FlowRecord> noSni = quiet.bothWays(false);
        assertSamePayloadFields(noSni);
        assertThat(noSni.get(1).l7().wireName()).isEqualTo("tls");
        assertThat(noSni.get(1).sni()).isNull();
    }

    @Test
    void t3JmsIsFoundInTheBudgetOfBothDirections() {
        Conversation c = new Conversation(SERVER_T3);
        c.send(true, 0, T3Payloads.CLIENT_HELLO).send(false, 1, T3Payloads.SERVER_HELLO);
        c.send(true, 2, T3Payloads.message(random, 200, T3Payloads.JMS_CLASSES));
        c.send(false, 3, T3Payloads.message(random, 120, T3Payloads.JMS_CLASSES));
        List<FlowRecord> both = c.bothWays(true);

        assertSamePayloadFields(both);
        assertThat(both.get(1).l7().wireName()).isEqualTo("t3-jms");
    }

    @Test
    void recordsOfAFlowDrainedOnlyNextTimeWaitForItsEntry() {
        KernelFlows flows = new KernelFlows(FlowTableConfig.DEFAULTS, new RecordFactory("wls3", "ens3", "run"),
                FlowSink.to(kernelPath::add), true, KernelFlows.Decisions.NONE);
        byte[] frame = Frames.tcp(CLIENT, SERVER_TNS, 1, new Frames.TcpHeader(1000, 9000, Frames.ACK | Frames.PSH,
                64240), TnsPayloads.connect("db1", 1521, "orcl"), 0, TnsPayloads.connect("db1", 1521, "orcl").length);
        flows.payload(new KernelPayload(0, IpAddresses.v4Lo(0x0A01_000A), 0, IpAddresses.v4Lo(0x0A02_0014), 1521,
                40112, 6, 5 * MS, 0, frame.length, frame, true, false));
        flows.settle();
        assertThat(flows.size()).isZero();
        flows.merge(new KernelFlowEntry(0, IpAddresses.v4Lo(0x0A01_000A), 0, IpAddresses.v4Lo(0x0A02_0014), 1521,
                40112, 6, 5 * MS, 5 * MS, 0, 0, 0, 1, frame.length - 14, frame.length, 0, 0x18, 0x18, true, -1, -1), WALL);
        flows.settle();
        flows.flushAll();
        assertThat(kernelPath).singleElement().satisfies(r -> assertThat(r.l7().wireName()).isEqualTo("oracle-tns"));
        assertThat(flows.payloadUnmatched()).isZero();
    }

    @Test
    void recordsWhoseFlowNeverCameAreDroppedAfterTwoDrainsAndCounted() {
        KernelFlows flows = new KernelFlows(FlowTableConfig.DEFAULTS, new RecordFactory("wls3", "ens3", "run"),
                FlowSink.to(kernelPath::add), true, KernelFlows.Decisions.NONE);
        flows.payload(new KernelPayload(0, 1, 0, 2, 1, 2, 6, MS, 0, 60, null, false, true));
        flows.settle();
        flows.settle();
        assertThat(flows.payloadUnmatched()).isZero();
        flows.settle();
        assertThat(flows.payloadUnmatched()).isEqualTo(1);
    }

    @Test
    void decodesARecordAtTheOffsetsOfTheCStruct() {
        ByteBuffer b = ByteBuffer.allocate(KernelPayload.HEADER_SIZE + 3).order(ByteOrder.nativeOrder());
        b.putLong(0, 1).putLong(8, 2).putLong(16, 3).putLong(24, 4).putShort(32, (short) 1521)
                .putShort(34, (short) 40112).put(36, (byte) 6).putLong(40, 7_000).putLong(48, 6_000).putInt(56, 1514)
                .putShort(60, (short) 3).put(62, (byte) 1).put(63, (byte) 3);
        b.put(64, (byte) 0xAA).put(65, (byte) 0xBB).put(66, (byte) 0xCC);
        KernelPayload r = KernelPayload.decode(b, b.capacity());
        assertThat(r).usingRecursiveComparison().isEqualTo(new KernelPayload(1, 2, 3, 4, 1521, 40112, 6, 7_000, 6_000,
                1514, new byte[] {(byte) 0xAA, (byte) 0xBB, (byte) 0xCC}, true, true));
        assertThat(KernelPayload.decode(b, KernelPayload.HEADER_SIZE + 2)).as("frame bytes beyond the record").isNull();
        assertThat(KernelPayload.decode(b, 63)).as("shorter than the header").isNull();
        b.put(62, (byte) 2).put(63, (byte) 0);
        assertThat(KernelPayload.decode(b, KernelPayload.HEADER_SIZE).frame()).as("a direction change").isNull();
    }

    /** A TLS 1.2 ClientHello record with one cipher suite and the server_name extension. */
    private static byte[] clientHello(String host) {
        byte[] name = host.getBytes(StandardCharsets.US_ASCII);
        int ext = 2 + 2 + 2 + 1 + 2 + name.length;
        int body = 2 + 32 + 1 + 2 + 2 + 1 + 1 + 2 + ext;
        ByteBuffer b = ByteBuffer.allocate(5 + 4 + body);
        b.put((byte) 0x16).putShort((short) 0x0301).putShort((short) (4 + body));
        b.put((byte) 1).put((byte) 0).putShort((short) body);
        b.putShort((short) 0x0303).put(new byte[32]).put((byte) 0);
        b.putShort((short) 2).putShort((short) 0x002F).put((byte) 1).put((byte) 0);
        b.putShort((short) ext).putShort((short) 0).putShort((short) (ext - 4)).putShort((short) (ext - 6))
                .put((byte) 0).putShort((short) name.length).put(name);
        return b.array();
    }
}
