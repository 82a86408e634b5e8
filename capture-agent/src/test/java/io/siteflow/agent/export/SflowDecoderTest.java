package io.siteflow.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * sFlow v5 datagrams written field by field (as the sFlow Version 5 spec lays them out, big-endian XDR) decode into
 * one-packet flows with the sampled header read by the agent's packet decoder: IP bytes from the IP header, frame bytes
 * from the record, the sampling rate to scale by; counter samples are counted, unknown formats skipped by length,
 * loss counted from the datagram sequence per agent and sub-agent, malformed input counted with the exact message.
 */
class SflowDecoderTest {
    private static final String CLIENT = "10.1.0.10";
    private static final String DB = "10.2.0.20";

    private final ExportCounters counters = new ExportCounters();
    private final List<String> flows = new ArrayList<>();
    private final ExporterState exporter = exporter("192.0.2.1");
    private SflowDecoder decoder = new SflowDecoder(counters, 1, 64);

    private static ExporterState exporter(String address) {
        long[] hl = IpAddresses.parse(address);
        return new ExporterState(hl[0], hl[1], address);
    }

    private void decode(ByteBuffer d) {
        decoder.decode(exporter, d, (ex, domain, f, rate) -> flows.add(ex.address() + "/" + domain + " "
                + IpAddresses.format(f.srcHi(), f.srcLo()) + ":" + f.srcPort() + ">" + IpAddresses.format(f.dstHi(),
                f.dstLo()) + ":" + f.dstPort() + " p" + f.proto() + " " + f.bytes() + "B " + f.packets() + "P "
                + f.frameBytes + "F f" + f.tcpFlags() + " x" + rate));
    }

    @Test
    void decodesTheSampledEthernetHeaderOfAFlowSampleWithTheAgentsPacketDecoder() {
        decode(new Sflow("10.9.0.1", 3, 1)
                .flowSample(7, 10, 1000, 0, rawHeader(1, 1518, 4, ethernet(tcp(CLIENT, 40112, DB, 5432, 0x02, 1500))))
                .build());

        // IP bytes from the IP header's total length (as capture counts them), not the 54 sampled bytes; the frame
        // length less the 4 octets stripped (the FCS)
        assertThat(flows).containsExactly("192.0.2.1/3 10.1.0.10:40112>10.2.0.20:5432 p6 1500B 1P 1514F f2 x10");
        assertThat(counters.sflowFlowSamples()).isEqualTo(1);
        assertThat(counters.sflowPackets()).isEqualTo(1);
        assertThat(counters.datagrams()).isEqualTo(1);
        assertThat(counters.malformedTotal()).isZero();
    }

    @Test
    void readsExpandedFlowSamplesOfAnIpv6AgentAndRawIpHeadersAndSkipsUnknownFormatsByLength() {
        decoder = new SflowDecoder(counters, 100, 64); // --sampling 100 for a sample that announces rate 0
        decode(new Sflow("2001:db8::9", 0, 1)
                .sample(0, 1001, new byte[] {1, 2, 3, 4}) // a sample format not read
                .sample(9, 1, new byte[8]) // an enterprise's format 1: not sFlow's flow sample
                .expandedFlowSample(8, 0, 0, record(1001, new byte[16]), // extended switch data: skipped
                        rawHeader(11, 60, 0, tcp(DB, 5432, CLIENT, 40112, 0x18, 60)))
                .build());

        assertThat(flows).containsExactly("192.0.2.1/0 10.2.0.20:5432>10.1.0.10:40112 p6 60B 1P 60F f24 x100");
        assertThat(counters.sflowSkippedRecords()).isEqualTo(3);
        assertThat(counters.sflowFlowSamples()).isEqualTo(1);
        assertThat(counters.malformedTotal()).isZero();
    }

    @Test
    void countsCounterSamplesAndTheirGenericInterfaceCountersWithoutFlows() {
        decode(new Sflow("10.9.0.1", 0, 1)
                .counterSample(record(1, new byte[88]), record(2, new byte[52]))
                .expandedCounterSample(record(1, new byte[88]))
                .build());

        assertThat(flows).isEmpty();
        assertThat(counters.sflowCounterSamples()).isEqualTo(2);
        assertThat(counters.sflowInterfaceCounters()).isEqualTo(2);
        assertThat(counters.sflowSkippedRecords()).isEqualTo(1);
    }

    @Test
    void countsSampledHeadersThatAreNotIpOrOfAHeaderProtocolNotDecoded() {
        byte[] arp = new byte[42];
        arp[12] = 0x08;
        arp[13] = 0x06;
        decode(new Sflow("10.9.0.1", 0, 1)
                .flowSample(1, 10, 10, 0, rawHeader(1, 64, 4, arp))
                .flowSample(1, 10, 20, 0, rawHeader(2, 64, 0, new byte[20])) // ISO 8802-4 token bus
                .build());

        assertThat(flows).isEmpty();
        assertThat(counters.sflowNotIp()).isEqualTo(2);
        assertThat(counters.sflowFlowSamples()).isEqualTo(2);
    }

    @Test
    void countsDatagramsLostFromTheSequencePerAgentAndSubAgentAndAStepBackAsAReset() {
        for (long seq : new long[] {1, 2, 5, 6, 3, 4}) {
            decode(new Sflow("10.9.0.1", 0, seq).build());
        }
        decode(new Sflow("10.9.0.1", 1, 100).build()); // another sub-agent: its own sequence
        decode(new Sflow("10.9.0.2", 0, 50).build()); // another agent behind the same exporter
        decode(new Sflow("10.9.0.2", 0, 52).build());

        assertThat(counters.sflowLostDatagrams()).isEqualTo(2 + 1);
        assertThat(counters.sequenceResets()).isEqualTo(1);
        assertThat(counters.lostRecords()).isZero();
        assertThat(counters.lostPackets()).isZero();
    }

    @Test
    void countsTheIncreaseOfEachDataSourcesDropsCounter() {
        decode(new Sflow("10.9.0.1", 0, 1).flowSample(1, 10, 10, 5).flowSample(2, 10, 10, 100).build());
        decode(new Sflow("10.9.0.1", 0, 2).flowSample(1, 10, 20, 12).flowSample(2, 10, 20, 100).build());

        assertThat(counters.sflowAgentDrops()).isEqualTo(7);
    }

    @Test
    void joinsSampledPacketsOfBothDirectionsIntoOneRecordScaledByTheRate() {
        List<FlowRecord> out = new ArrayList<>();
        BiflowJoiner joiner = new BiflowJoiner("edge-b", "0.0.0.0:2055", "run", FlowTableConfig.DEFAULTS, out::add);
        joiner.source("0.0.0.0:6343", SflowDecoder.KIND);
        joiner.now(1_000);
        decoder.decode(exporter, new Sflow("10.9.0.1", 0, 1)
                .flowSample(1, 10, 10, 0, rawHeader(1, 1518, 4, ethernet(tcp(CLIENT, 40112, DB, 5432, 0x10, 1500))))
                .flowSample(1, 10, 20, 0, rawHeader(1, 70, 4, ethernet(tcp(DB, 5432, CLIENT, 40112, 0x10, 52))))
                .flowSample(1, 10, 30, 0, rawHeader(1, 70, 4, ethernet(tcp(DB, 5432, CLIENT, 40112, 0x18, 52))))
                .build(), joiner);
        joiner.flushAll();

        assertThat(out).hasSize(1);
        FlowRecord r = out.get(0);
        assertThat(List.of(r.src(), r.srcPort(), r.dst(), r.dstPort())).isEqualTo(List.of(CLIENT, 40112, DB, 5432));
        assertThat(List.of(r.bytes(), r.packets(), r.frameBytes(), r.rbytes(), r.rpackets(), r.rframeBytes()))
                .isEqualTo(List.of(15_000L, 10L, 15_140L, 1_040L, 20L, 1_320L));
        assertThat(r.sampled()).isEqualTo(10);
        assertThat(r.iface()).isEqualTo("0.0.0.0:6343");
        assertThat(r.exporter()).isEqualTo("192.0.2.1");
        assertThat(r.observationDomain()).isZero();
    }

    @Test
    void countsEachMalformedKindWithTheExporterTheAgentAndTheOffset() {
        decode(ByteBuffer.wrap(new byte[] {0, 0, 0, 5, 0}));
        decode(ByteBuffer.wrap(new byte[] {0, 0, 0, 4, 0, 0, 0, 1}));
        decode(ByteBuffer.wrap(new byte[] {0, 0, 0, 5, 0, 0, 0, 3}));
        ByteBuffer shortV6 = ByteBuffer.allocate(30).putInt(5).putInt(2);
        decode(shortV6.clear());

        assertThat(counters.firstMessage(Malformed.TRUNCATED_HEADER))
                .isEqualTo("exporter 192.0.2.1: sFlow: 5 bytes, too short for a version and an agent address type");
        assertThat(counters.firstMessage(Malformed.UNKNOWN_VERSION))
                .isEqualTo("exporter 192.0.2.1: sFlow version 4 at offset 0 is not sFlow v5");
        assertThat(counters.malformed(Malformed.UNKNOWN_VERSION)).isEqualTo(2); // and the address type 3
        assertThat(counters.malformed(Malformed.TRUNCATED_HEADER)).isEqualTo(2); // and the 30-byte IPv6 one
    }

    @Test
    void namesTheAddressTypeAndTheShortHeader() {
        decode(ByteBuffer.wrap(new byte[] {0, 0, 0, 5, 0, 0, 0, 3}));
        decode(ByteBuffer.allocate(30).putInt(5).putInt(2).clear());

        assertThat(counters.firstMessage(Malformed.UNKNOWN_VERSION)).isEqualTo(
                "exporter 192.0.2.1: sFlow v5: agent address type 3 at offset 4 is not IPv4 (1) or IPv6 (2)");
        assertThat(counters.firstMessage(Malformed.TRUNCATED_HEADER))
                .isEqualTo("exporter 192.0.2.1: sFlow v5: 30 bytes, shorter than the 40-byte header");
    }

    @Test
    void keepsTheSamplesBeforeASampleThatRunsPastTheDatagram() {
        ByteBuffer d = new Sflow("10.9.0.1", 0, 1)
                .flowSample(1, 10, 10, 0, rawHeader(11, 60, 0, tcp(CLIENT, 40112, DB, 5432, 0x10, 60)))
                .sample(0, 1, new byte[40]).count(3).build();
        int second = d.limit() - 48;
        d.putInt(second + 4, 400);
        decode(d);

        assertThat(flows).hasSize(1);
        assertThat(counters.firstMessage(Malformed.BAD_SET_LENGTH)).isEqualTo("exporter 192.0.2.1: sFlow agent "
                + "10.9.0.1 sub-agent 0: sample 2 (format 0:1) at offset " + second + " has length 400, past the end at "
                + d.limit() + "; 1 read");
    }

    @Test
    void namesASampleHeaderPastTheEndARecordPastItsSampleAndAHeaderPastItsRecord() {
        decode(new Sflow("10.9.0.1", 0, 1).count(2).build());
        ByteBuffer record = new Sflow("10.9.0.1", 0, 2).flowSample(1, 10, 10, 0, record(1001, new byte[8])).build();
        int recordAt = record.limit() - 16;
        record.putInt(recordAt + 4, 9);
        decode(record);
        ByteBuffer header = new Sflow("10.9.0.1", 0, 3)
                .flowSample(1, 10, 10, 0, rawHeader(11, 60, 0, tcp(CLIENT, 40112, DB, 5432, 0x10, 60))).build();
        int rawAt = header.limit() - 8 - 16 - 40;
        header.putInt(rawAt + 8 + 12, 41);
        decode(header);

        assertThat(flows).isEmpty();
        assertThat(counters.malformed(Malformed.BAD_SET_LENGTH)).isEqualTo(1);
        assertThat(counters.firstMessage(Malformed.BAD_SET_LENGTH)).isEqualTo("exporter 192.0.2.1: sFlow agent "
                + "10.9.0.1 sub-agent 0: sample 1 of 2 at offset 28: its header runs past the end at 28; 0 read");
        assertThat(counters.malformed(Malformed.TRUNCATED_RECORD)).isEqualTo(2);
        assertThat(counters.firstMessage(Malformed.TRUNCATED_RECORD)).isEqualTo("exporter 192.0.2.1: sFlow agent "
                + "10.9.0.1 sub-agent 0: flow record 1 (format 0:1001) at offset " + recordAt + " has length 9, past "
                + "the sample's end at " + record.limit());
        assertThat(counters.sflowLostDatagrams()).isZero();
    }

    @Test
    void countsASampledHeaderThePacketDecoderFindsMalformedAndKeepsTheRest() {
        byte[] bad = tcp(CLIENT, 40112, DB, 5432, 0x10, 60);
        bad[0] = 0x44; // IPv4 with a 16-byte header: below the minimum
        ByteBuffer d = new Sflow("10.9.0.1", 0, 1)
                .flowSample(1, 10, 10, 0, rawHeader(11, 60, 0, bad))
                .flowSample(1, 10, 20, 0, rawHeader(11, 60, 0, tcp(CLIENT, 40112, DB, 5432, 0x10, 60)))
                .build();
        decode(d);

        assertThat(flows).hasSize(1);
        assertThat(counters.malformedByKind()).isEqualTo(Map.of(Malformed.BAD_SAMPLED_HEADER, 1L));
        assertThat(counters.firstMessage(Malformed.BAD_SAMPLED_HEADER)).isEqualTo("exporter 192.0.2.1: sFlow agent "
                + "10.9.0.1 sub-agent 0: sampled header at offset 92 (header protocol 11, 40 bytes): IP_INVALID"
                + " at byte 0");
    }

    @Test
    void leavesOutASampleWhoseFrameLengthTimesTheSamplingRateDoesNotFitASigned64BitCount() {
        // the joiner multiplies the frame length by the rate: 2^32 - 1 times 2^32 - 1 wrapped round to a negative count
        decode(new Sflow("10.9.0.1", 3, 1)
                .flowSample(7, -1, 1000, 0, rawHeader(1, -1, 0, ethernet(tcp(CLIENT, 40112, DB, 5432, 0x02, 1500))))
                .flowSample(7, 10, 1000, 0, rawHeader(1, 1518, 4, ethernet(tcp(CLIENT, 40112, DB, 5432, 0x10, 1500))))
                .build());

        assertThat(flows).containsExactly("192.0.2.1/3 10.1.0.10:40112>10.2.0.20:5432 p6 1500B 1P 1514F f16 x10");
        assertThat(counters.malformedByKind()).containsExactly(Map.entry(Malformed.BAD_COUNTER, 1L));
        assertThat(counters.firstMessage(Malformed.BAD_COUNTER)).isEqualTo("exporter 192.0.2.1: sFlow agent 10.9.0.1 "
                + "sub-agent 3: raw packet header at offset 68: frame length 4294967295 or IP length 1500 times the "
                + "sampling rate 4294967295 is beyond 2^63 - 1; the sample is left out");
    }

    // datagrams

    /** A raw packet header record (format 0:1): header protocol, frame length, stripped, the header padded to 4. */
    static byte[] rawHeader(int protocol, int frameLength, int stripped, byte[] header) {
        ByteBuffer b = ByteBuffer.allocate(16 + (header.length + 3) / 4 * 4);
        b.putInt(protocol).putInt(frameLength).putInt(stripped).putInt(header.length).put(header);
        return record(1, b.array());
    }

    /** A flow or counter record: data format (enterprise 0), length, body. */
    static byte[] record(int format, byte[] body) {
        return ByteBuffer.allocate(8 + body.length).putInt(format).putInt(body.length).put(body).array();
    }

    /** An Ethernet II header before an IPv4 packet. */
    static byte[] ethernet(byte[] ip) {
        ByteBuffer b = ByteBuffer.allocate(14 + ip.length);
        b.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) 0x0800).put(ip);
        return b.array();
    }

    /** The first 40 bytes of an IPv4 TCP packet of {@code ipLength} bytes (the rest not sampled). */
    static byte[] tcp(String src, int srcPort, String dst, int dstPort, int flags, int ipLength) {
        ByteBuffer b = ByteBuffer.allocate(40);
        b.put((byte) 0x45).put((byte) 0).putShort((short) ipLength).putShort((short) 1).putShort((short) 0x4000)
                .put((byte) 64).put((byte) 6).putShort((short) 0).putInt(v4(src)).putInt(v4(dst));
        b.putShort((short) srcPort).putShort((short) dstPort).putInt(1000).putInt(2000).put((byte) 0x50)
                .put((byte) flags).putShort((short) 65535).putShort((short) 0).putShort((short) 0);
        return b.array();
    }

    private static int v4(String a) {
        return (int) IpAddresses.parse(a)[1];
    }

    /** An sFlow v5 datagram; the sample count is filled in by {@link #build()} unless {@link #count} is given. */
    static final class Sflow {
        private final ByteBuffer b = ByteBuffer.allocate(65536);
        private final int countAt;
        private int samples;
        private int count = -1;

        Sflow(String agent, long subAgent, long sequence) {
            long[] hl = IpAddresses.parse(agent);
            boolean v4 = !agent.contains(":");
            b.putInt(5).putInt(v4 ? 1 : 2);
            if (v4) {
                b.putInt((int) hl[1]);
            } else {
                b.putLong(hl[0]).putLong(hl[1]);
            }
            b.putInt((int) subAgent).putInt((int) sequence).putInt(123_456);
            countAt = b.position();
            b.putInt(0);
        }

        Sflow sample(int enterprise, int format, byte[] body) {
            b.putInt(enterprise << 12 | format).putInt(body.length).put(body);
            samples++;
            return this;
        }

        Sflow flowSample(int source, int rate, int pool, int drops, byte[]... records) {
            ByteBuffer s = ByteBuffer.allocate(32 + length(records));
            s.putInt(samples + 1).putInt(source).putInt(rate).putInt(pool).putInt(drops).putInt(1).putInt(2)
                    .putInt(records.length);
            for (byte[] r : records) {
                s.put(r);
            }
            return sample(0, 1, s.array());
        }

        Sflow expandedFlowSample(int index, int rate, int drops, byte[]... records) {
            ByteBuffer s = ByteBuffer.allocate(44 + length(records));
            s.putInt(samples + 1).putInt(0).putInt(index).putInt(rate).putInt(1000).putInt(drops).putInt(0).putInt(1)
                    .putInt(0).putInt(2).putInt(records.length);
            for (byte[] r : records) {
                s.put(r);
            }
            return sample(0, 3, s.array());
        }

        Sflow counterSample(byte[]... records) {
            ByteBuffer s = ByteBuffer.allocate(12 + length(records));
            s.putInt(samples + 1).putInt(1).putInt(records.length);
            for (byte[] r : records) {
                s.put(r);
            }
            return sample(0, 2, s.array());
        }

        Sflow expandedCounterSample(byte[]... records) {
            ByteBuffer s = ByteBuffer.allocate(16 + length(records));
            s.putInt(samples + 1).putInt(0).putInt(1).putInt(records.length);
            for (byte[] r : records) {
                s.put(r);
            }
            return sample(0, 4, s.array());
        }

        Sflow count(int n) {
            count = n;
            return this;
        }

        ByteBuffer build() {
            b.putInt(countAt, count >= 0 ? count : samples);
            return ByteBuffer.wrap(java.util.Arrays.copyOf(b.array(), b.position()));
        }

        private static int length(byte[][] records) {
            int n = 0;
            for (byte[] r : records) {
                n += r.length;
            }
            return n;
        }
    }
}
