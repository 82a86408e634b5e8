package io.siteflow.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.IpAddresses;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NetFlow v5, NetFlow v9 and IPFIX datagrams written field by field ({@link Datagram}) decode into the flows they
 * carry: times, counters, flags, sampling rates, sequence loss; templates are kept, withdrawn, expired and bounded per
 * exporter; malformed input is counted with the exact message and what came before the fault is kept.
 */
class ExportDecoderTest {
    private static final long SECS = 1_764_000_000L;
    private static final String A = "10.2.0.20";
    private static final String B = "10.1.0.10";

    private final ExportCounters counters = new ExportCounters();
    private final List<String> flows = new ArrayList<>();
    private final ExporterState exporter = exporter("192.0.2.1");
    private ExportDecoder decoder = new ExportDecoder(counters, 1, 1_800_000, 512, 64);

    private static ExporterState exporter(String address) {
        long[] hl = IpAddresses.parse(address);
        return new ExporterState(hl[0], hl[1], address);
    }

    private void decode(ByteBuffer d) {
        decode(d, 0);
    }

    private void decode(ByteBuffer d, long nowMs) {
        decoder.decode(exporter, d, nowMs, (ex, domain, f, rate) -> flows.add(ex.address() + "/" + domain + " "
                + IpAddresses.format(f.srcHi(), f.srcLo()) + ":" + f.srcPort() + ">" + IpAddresses.format(f.dstHi(),
                f.dstLo()) + ":" + f.dstPort() + " p" + f.proto() + " " + f.bytes() + "B " + f.packets() + "P f"
                + f.tcpFlags() + (f.biflow() ? " rev " + f.rbytes() + "B " + f.rpackets() + "P f" + f.rtcpFlags() : "")
                + " " + f.startMs() + "-" + f.endMs() + " x" + rate));
    }

    // NetFlow v5

    @Test
    void decodesNetFlowV5RecordsWithTimesFromTheHeader() {
        decode(Datagram.v5(2, 10_000, SECS, 500_000_000, 100, 0x0102, 0)
                .v5Record(Datagram.ip(A), Datagram.ip(B), 10, 5_200, 4_000, 9_000, 40112, 1521, 0x1B, 6)
                .v5Record(Datagram.ip(B), Datagram.ip(A), 8, 41_000, 4_001, 9_001, 1521, 40112, 0x1A, 6).build());

        assertThat(flows).containsExactly(
                "192.0.2.1/258 10.2.0.20:40112>10.1.0.10:1521 p6 5200B 10P f27 1763999994500-1763999999500 x1",
                "192.0.2.1/258 10.1.0.10:1521>10.2.0.20:40112 p6 41000B 8P f26 1763999994501-1763999999501 x1");
        assertThat(counters.records()).isEqualTo(2);
        assertThat(counters.datagrams()).isEqualTo(1);
    }

    @Test
    void countsNetFlowV5RecordsLostBetweenDatagramsFromTheFlowSequence() {
        decode(Datagram.v5(2, 0, SECS, 0, 100, 0, 0)
                .v5Record(1, 2, 1, 40, 0, 0, 1, 2, 0, 17).v5Record(1, 3, 1, 40, 0, 0, 1, 2, 0, 17).build());
        decode(Datagram.v5(1, 0, SECS, 0, 105, 0, 0).v5Record(1, 4, 1, 40, 0, 0, 1, 2, 0, 17).build());
        decode(Datagram.v5(1, 0, SECS, 0, 106, 0, 0).v5Record(1, 5, 1, 40, 0, 0, 1, 2, 0, 17).build());

        assertThat(counters.lostRecords()).isEqualTo(3);
        assertThat(counters.lostPackets()).isZero();
        assertThat(counters.records()).isEqualTo(4);
    }

    @Test
    void scalesByTheSamplingIntervalOfTheV5HeaderAndElseByTheDefault() {
        decode(Datagram.v5(1, 0, SECS, 0, 0, 0, 0x4000 | 100).v5Record(1, 2, 3, 120, 0, 0, 1, 2, 0, 17).build());
        decoder = new ExportDecoder(counters, 7, 1_800_000, 512, 64);
        decode(Datagram.v5(1, 0, SECS, 0, 1, 0, 0).v5Record(1, 2, 3, 120, 0, 0, 1, 2, 0, 17).build());

        assertThat(flows).extracting(s -> s.substring(s.lastIndexOf(' ') + 1)).containsExactly("x100", "x7");
    }

    @Test
    void countsASequenceThatGoesBackwardsAsAResetNotAsLoss() {
        decode(Datagram.v5(1, 0, SECS, 0, 100, 0, 0).v5Record(1, 2, 1, 40, 0, 0, 1, 2, 0, 17).build());
        decode(Datagram.v5(1, 0, SECS, 0, 7, 0, 0).v5Record(1, 2, 1, 40, 0, 0, 1, 2, 0, 17).build());
        decode(Datagram.v5(1, 0, SECS, 0, 8, 0, 0).v5Record(1, 2, 1, 40, 0, 0, 1, 2, 0, 17).build());

        assertThat(counters.sequenceResets()).isEqualTo(1);
        assertThat(counters.lostRecords()).isZero();
    }

    // NetFlow v9

    private static Datagram v9Template(Datagram d) {
        return d.set(0).u16(256).u16(10).u16(8).u16(4).u16(12).u16(4).u16(7).u16(2).u16(11).u16(2).u16(4).u16(1)
                .u16(6).u16(1).u16(1).u16(4).u16(2).u16(4).u16(22).u16(4).u16(21).u16(4).endSet();
    }

    private static Datagram v9Record(Datagram d, String src, String dst, long bytes) {
        return d.ip4(src).ip4(dst).u16(40112).u16(1521).u8(6).u8(0x1B).u32(bytes).u32(12).u32(4_000).u32(9_000);
    }

    @Test
    void decodesNetFlowV9DataWithTheTemplateOfAnEarlierDatagram() {
        decode(v9Template(Datagram.v9(10_000, SECS, 0, 7)).build());
        decode(v9Record(Datagram.v9(10_000, SECS, 1, 7).set(256), A, B, 5_200).u16(0).endSet().build());

        assertThat(flows).containsExactly(
                "192.0.2.1/7 10.2.0.20:40112>10.1.0.10:1521 p6 5200B 12P f27 1763999994000-1763999999000 x1");
        assertThat(counters.malformedTotal()).isZero();
    }

    @Test
    void countsNetFlowV9ExportPacketsLostFromTheSequence() {
        decode(v9Template(Datagram.v9(0, SECS, 7, 0)).build());
        decode(v9Record(Datagram.v9(0, SECS, 10, 0).set(256), A, B, 1).endSet().build());
        decode(v9Record(Datagram.v9(0, SECS, 11, 0).set(256), A, B, 1).endSet().build());

        assertThat(counters.lostPackets()).isEqualTo(2);
        assertThat(counters.lostRecords()).isZero();
    }

    @Test
    void expiresAV9TemplateTheExporterDidNotRefreshWithinItsLifetime() {
        decoder = new ExportDecoder(counters, 1, 1_000, 512, 64);
        decode(v9Template(Datagram.v9(0, SECS, 0, 0)).build(), 5_000);
        decode(v9Record(Datagram.v9(0, SECS, 1, 0).set(256), A, B, 1).endSet().build(), 6_000);
        decode(v9Record(Datagram.v9(0, SECS, 2, 0).set(256), A, B, 1).endSet().build(), 6_001);

        assertThat(flows).hasSize(1);
        assertThat(counters.templatesExpired()).isEqualTo(1);
        assertThat(counters.firstMessage(Malformed.NO_TEMPLATE)).isEqualTo("exporter 192.0.2.1: NetFlow v9 source 0: "
                + "data set of template 256 at offset 20: no such template (not received yet, withdrawn or expired)");
    }

    @Test
    void readsTheSamplingIntervalFromNetFlowV9OptionsData() {
        Datagram d = Datagram.v9(0, SECS, 0, 0)
                .set(1).u16(257).u16(4).u16(8).u16(1).u16(4).u16(34).u16(4).u16(35).u16(1).u16(0).endSet()
                .set(257).u32(0).u32(50).u8(2).u16(0).u8(0).endSet();
        decode(v9Template(d).build());
        decode(v9Record(Datagram.v9(0, SECS, 1, 0).set(256), A, B, 100).endSet().build());

        assertThat(counters.optionsRecords()).isEqualTo(1);
        assertThat(flows).singleElement().asString().endsWith(" x50").contains(" 100B 12P ");
    }

    // IPFIX

    /** 8, 12, 7, 11, 4, an enterprise field (PEN 9, 6 bytes), 1, 2, interfaceName (variable), 152, 153. */
    private static Datagram ipfixTemplate(Datagram d, int id) {
        return d.set(2).u16(id).u16(11).u16(8).u16(4).u16(12).u16(4).u16(7).u16(2).u16(11).u16(2).u16(4).u16(1)
                .u16(0x8000 | 100).u16(6).u32(9).u16(1).u16(8).u16(2).u16(8).u16(82).u16(65535).u16(152).u16(8)
                .u16(153).u16(8).endSet();
    }

    private static Datagram ipfixRecord(Datagram d, long bytes, byte[] name) {
        d.ip4(A).ip4(B).u16(40112).u16(1521).u8(6).bytes(new byte[6]).u64(bytes).u64(3);
        if (name.length < 255) {
            d.u8(name.length);
        } else {
            d.u8(255).u16(name.length);
        }
        return d.bytes(name).u64(1_764_000_000_123L).u64(1_764_000_000_456L);
    }

    @Test
    void decodesIpfixSkippingEnterpriseFieldsAndVariableLengthFieldsOfEitherLengthForm() {
        decode(ipfixRecord(ipfixRecord(ipfixTemplate(Datagram.ipfix(SECS, 0, 3), 300).set(300), 1_000,
                "eth0".getBytes()), 2_000, new byte[300]).endSet().build());

        assertThat(flows).containsExactly(
                "192.0.2.1/3 10.2.0.20:40112>10.1.0.10:1521 p6 1000B 3P f0 1764000000123-1764000000456 x1",
                "192.0.2.1/3 10.2.0.20:40112>10.1.0.10:1521 p6 2000B 3P f0 1764000000123-1764000000456 x1");
        assertThat(counters.malformedTotal()).isZero();
    }

    @Test
    void readsIpv6AddressesAndNtpTimes() {
        byte[] a = new byte[16];
        byte[] b = new byte[16];
        a[0] = 0x20;
        a[1] = 0x01;
        a[2] = 0x0d;
        a[3] = (byte) 0xb8;
        a[15] = 0x20;
        b[0] = 0x20;
        b[1] = 0x01;
        b[2] = 0x0d;
        b[3] = (byte) 0xb8;
        b[5] = 1;
        b[15] = 0x0a;
        long ntpSeconds = SECS + 2_208_988_800L;
        decode(Datagram.ipfix(SECS, 0, 0).set(2).u16(256).u16(7).u16(27).u16(16).u16(28).u16(16).u16(7).u16(2)
                .u16(11).u16(2).u16(4).u16(1).u16(156).u16(8).u16(157).u16(8).endSet()
                .set(256).bytes(a).bytes(b).u16(7574).u16(7574).u8(17).u32(ntpSeconds).u32(0x8000_0000L)
                .u32(ntpSeconds + 1).u32(0).endSet().build());

        assertThat(flows).containsExactly(
                "192.0.2.1/0 2001:db8::20:7574>2001:db8:1::a:7574 p17 0B 0P f0 1764000000500-1764000001000 x1");
    }

    @Test
    void readsRfc5103ReverseCountersOfABiflowRecord() {
        decode(Datagram.ipfix(SECS, 0, 0).set(2).u16(256).u16(11).u16(8).u16(4).u16(12).u16(4).u16(7).u16(2)
                .u16(11).u16(2).u16(4).u16(1).u16(1).u16(8).u16(2).u16(8).u16(6).u16(1)
                .u16(0x8001).u16(8).u32(29305).u16(0x8002).u16(8).u32(29305).u16(0x8006).u16(1).u32(29305).endSet()
                .set(256).ip4(A).ip4(B).u16(40112).u16(1521).u8(6).u64(5_200).u64(10).u8(0x02)
                .u64(41_000).u64(8).u8(0x12).endSet().build());

        assertThat(flows).containsExactly(
                "192.0.2.1/0 10.2.0.20:40112>10.1.0.10:1521 p6 5200B 10P f2 rev 41000B 8P f18 -1--1 x1");
    }

    @Test
    void withdrawsATemplateAndCountsDataThatStillUsesIt() {
        decode(ipfixTemplate(Datagram.ipfix(SECS, 0, 0), 300).build());
        decode(Datagram.ipfix(SECS, 0, 0).set(2).u16(300).u16(0).endSet().build());
        decode(ipfixRecord(Datagram.ipfix(SECS, 0, 0).set(300), 1, new byte[0]).endSet().build());

        assertThat(flows).isEmpty();
        assertThat(counters.malformedByKind()).isEqualTo(Map.of(Malformed.NO_TEMPLATE, 1L));
        assertThat(counters.firstMessage(Malformed.NO_TEMPLATE)).isEqualTo("exporter 192.0.2.1: IPFIX domain 0: "
                + "data set of template 300 at offset 16: no such template (not received yet, withdrawn or expired)");
    }

    @Test
    void withdrawsEveryDataTemplateWithTemplateIdTwoAndKeepsOptionsTemplates() {
        decode(ipfixTemplate(ipfixTemplate(Datagram.ipfix(SECS, 0, 0), 300), 301)
                .set(3).u16(400).u16(2).u16(1).u16(149).u16(4).u16(34).u16(4).endSet().build());
        decode(Datagram.ipfix(SECS, 0, 0).set(2).u16(2).u16(0).endSet().build());
        decode(ipfixRecord(Datagram.ipfix(SECS, 0, 0).set(301), 1, new byte[0]).endSet()
                .set(400).u32(0).u32(10).endSet().build());

        assertThat(counters.malformed(Malformed.NO_TEMPLATE)).isEqualTo(1);
        assertThat(counters.optionsRecords()).isEqualTo(1);
    }

    @Test
    void readsTheSamplingRateFromIpfixPacketIntervalAndSpace() {
        decode(ipfixTemplate(Datagram.ipfix(SECS, 0, 5), 300)
                .set(3).u16(400).u16(3).u16(1).u16(149).u16(4).u16(305).u16(4).u16(306).u16(4).endSet()
                .set(400).u32(5).u32(1).u32(99).endSet().build());
        decode(ipfixRecord(Datagram.ipfix(SECS, 1, 5).set(300), 1_000, new byte[0]).endSet().build());

        assertThat(flows).singleElement().asString().endsWith(" x100").contains(" 1000B 3P ");
    }

    @Test
    void refusesTemplatesBeyondTheExporterBoundAndCountsThem() {
        decoder = new ExportDecoder(counters, 1, 1_800_000, 2, 64);
        decode(ipfixTemplate(ipfixTemplate(ipfixTemplate(Datagram.ipfix(SECS, 0, 0), 300), 301), 302).build());
        decode(ipfixTemplate(Datagram.ipfix(SECS, 0, 0), 301).build()); // a refresh of a held template is taken

        assertThat(counters.malformedByKind()).isEqualTo(Map.of(Malformed.TEMPLATE_LIMIT, 1L));
        assertThat(counters.firstMessage(Malformed.TEMPLATE_LIMIT)).isEqualTo("exporter 192.0.2.1: IPFIX domain 0: "
                + "template 302 at offset 132 refused: the exporter holds 2 templates (the bound)");
    }

    @Test
    void countsIpfixRecordsLostFromTheSequenceOfDataRecords() {
        decode(ipfixRecord(ipfixRecord(ipfixTemplate(Datagram.ipfix(SECS, 10, 0), 300).set(300), 1, new byte[0]),
                1, new byte[0]).endSet().build());
        decode(ipfixRecord(Datagram.ipfix(SECS, 15, 0).set(300), 1, new byte[0]).endSet().build());
        decode(ipfixRecord(Datagram.ipfix(SECS, 16, 0).set(300), 1, new byte[0]).endSet().build());

        assertThat(counters.lostRecords()).isEqualTo(3);
        assertThat(counters.sequenceResets()).isZero();
    }

    @Test
    void keepsTheRecordsBeforeABrokenSet() {
        ByteBuffer d = ipfixRecord(ipfixTemplate(Datagram.ipfix(SECS, 0, 0), 300).set(300), 1, new byte[0]).endSet()
                .set(300).endSet().u32(0).build();
        d.putShort(d.limit() - 6, (short) 2);
        decode(d);

        assertThat(flows).hasSize(1);
        assertThat(counters.firstMessage(Malformed.BAD_SET_LENGTH)).isEqualTo("exporter 192.0.2.1: IPFIX domain 0: "
                + "set 300 at offset 128 has length 2 (below 4, or past the end at 136)");
    }

    @Test
    void allocatesNothingPerFieldOrRecordOnceTheTemplateIsKnown() {
        Datagram d = ipfixTemplate(Datagram.ipfix(SECS, 0, 3), 300);
        decode(d.build());
        Datagram data = Datagram.ipfix(SECS, 0, 3).set(300);
        for (int i = 0; i < 20; i++) {
            ipfixRecord(data, i, "eth0".getBytes());
        }
        ByteBuffer datagram = data.endSet().build();
        long[] seen = new long[1];
        ExportReceiver count = (ex, domain, f, rate) -> seen[0] += f.bytes();
        for (int i = 0; i < 20_000; i++) { // warm up: the JIT settles before the measured run
            decoder.decode(exporter, datagram, 0, count);
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            decoder.decode(exporter, datagram, 0, count);
        }
        long perDatagram = (threads.getCurrentThreadAllocatedBytes() - before) / 10_000;

        // 20 records of 11 fields each; at most the boxed domain and template ids of a datagram's lookups remain
        assertThat(perDatagram).isLessThanOrEqualTo(64);
        assertThat(seen[0]).isEqualTo(30_000L * 190);
    }

    // malformed input: each kind counted, the exact message

    @Test
    void refusesAV9TemplateWithoutFieldsWhoseDataSetWouldHoldRecordsWithoutEnd() {
        // found by ExportDecoderFuzzTest#decodesAnyNetFlowV9Datagrams: the template was kept and every data set of
        // it gave one flow per set byte read as nothing, without end (the record read no byte)
        decode(Datagram.v9(0, SECS, 0, 0).set(0).u16(256).u16(0).endSet().build());
        decode(Datagram.v9(0, SECS, 1, 0).set(256).u32(0).endSet().build());

        assertThat(flows).isEmpty();
        assertThat(counters.firstMessage(Malformed.BAD_TEMPLATE)).isEqualTo("exporter 192.0.2.1: NetFlow v9 source "
                + "0: template 256 at offset 24 has no fields: its records would take no bytes");
        assertThat(counters.malformedByKind()).containsExactly(Map.entry(Malformed.BAD_TEMPLATE, 1L),
                Map.entry(Malformed.NO_TEMPLATE, 1L));
    }

    @Test
    void refusesAnOptionsTemplateOfZeroLengthFieldsWhoseDataSetWouldNeverEnd() {
        // found by ExportDecoderFuzzTest (a timeout): an options record of no bytes is counted, not given on, so the
        // data set was read for ever
        decode(Datagram.ipfix(SECS, 0, 0).set(3).u16(400).u16(2).u16(1).u16(149).u16(0).u16(999).u16(0).endSet()
                .set(400).u32(0).endSet().build());

        assertThat(counters.optionsRecords()).isZero();
        assertThat(counters.firstMessage(Malformed.BAD_TEMPLATE)).isEqualTo("exporter 192.0.2.1: IPFIX domain 0: "
                + "template 400 at offset 20 has only fields of length 0: its records would take no bytes");
        assertThat(counters.malformedByKind()).containsExactly(Map.entry(Malformed.BAD_TEMPLATE, 1L),
                Map.entry(Malformed.NO_TEMPLATE, 1L));
    }

    @Test
    void leavesOutARecordWhoseCounterDoesNotFitASigned64BitCountAndReadsTheNext() {
        // found by ExportDecoderFuzzTest#decodesAnyIpfixMessages: an 8-byte octetDeltaCount of 2^63 or more was given
        // on as a negative byte count, and a large one times the sampling rate wrapped round
        decode(ipfixRecord(ipfixRecord(ipfixTemplate(Datagram.ipfix(SECS, 0, 3), 300).set(300), 1L << 63,
                new byte[0]), 1_000, new byte[0]).endSet().build());
        Datagram sampled = Datagram.v9(0, SECS, 0, 0)
                .set(1).u16(257).u16(4).u16(8).u16(1).u16(4).u16(34).u16(4).u16(35).u16(1).u16(0).endSet()
                .set(257).u32(0).u32(50).u8(2).u16(0).u8(0).endSet();
        decode(v9Template(sampled).build());
        decode(v9Record(Datagram.v9(0, SECS, 1, 0).set(256), A, B, 0xFFFF_FFFFL).endSet().build());

        assertThat(flows).extracting(f -> f.substring(f.indexOf(" p6 "))).containsExactly(
                " p6 1000B 3P f0 1764000000123-1764000000456 x1",
                " p6 4294967295B 12P f27 1764000004000-1764000009000 x50");
        assertThat(counters.malformedByKind()).containsExactly(Map.entry(Malformed.BAD_COUNTER, 1L));
        assertThat(counters.firstMessage(Malformed.BAD_COUNTER)).isEqualTo("exporter 192.0.2.1: IPFIX domain 3: "
                + "data record of template 300 at offset 76: octets 9223372036854775808 is beyond 2^63 - 1; the record "
                + "is left out");
    }

    @Test
    void leavesOutARecordWhoseCounterTimesTheSamplingRateDoesNotFit() {
        decoder = new ExportDecoder(counters, 4, 1_800_000, 512, 64); // --sampling 4
        decode(ipfixRecord(ipfixTemplate(Datagram.ipfix(SECS, 0, 3), 300).set(300), 1L << 62, new byte[0])
                .endSet().build());

        assertThat(flows).isEmpty();
        assertThat(counters.firstMessage(Malformed.BAD_COUNTER)).isEqualTo("exporter 192.0.2.1: IPFIX domain 3: "
                + "data record of template 300 at offset 76: octets 4611686018427387904 times the sampling rate 4 is "
                + "beyond 2^63 - 1; the record is left out");
    }

    @Test
    void namesTheExporterAndOffsetOfEveryKindOfMalformedDatagram() {
        decode(ByteBuffer.wrap(new byte[] {0}));
        decode(ByteBuffer.wrap(new byte[] {0, 7, 0, 0}));
        decode(Datagram.v9(0, SECS, 0, 0).build().limit(12));
        ByteBuffer longer = ipfixTemplate(Datagram.ipfix(SECS, 0, 0), 300).build();
        longer.putShort(2, (short) 400);
        decode(longer);
        decode(Datagram.ipfix(SECS, 0, 0).set(2).u16(256).u16(1).u16(8).u16(5).endSet().build());
        decode(ipfixTemplate(Datagram.ipfix(SECS, 0, 0), 300).set(300).ip4(A).ip4(B).u16(1).u16(2).u8(6)
                .bytes(new byte[6]).u64(1).u64(1).u8(200).bytes(new byte[30]).endSet().build());
        decode(Datagram.v5(3, 0, SECS, 0, 0, 0, 0).v5Record(1, 2, 1, 40, 0, 0, 1, 2, 0, 17).build());

        assertThat(counters.malformedByKind()).containsExactly(Map.entry(Malformed.TRUNCATED_HEADER, 2L),
                Map.entry(Malformed.UNKNOWN_VERSION, 1L), Map.entry(Malformed.BAD_LENGTH, 2L),
                Map.entry(Malformed.BAD_TEMPLATE, 1L), Map.entry(Malformed.TRUNCATED_RECORD, 1L));
        assertThat(List.of(Malformed.TRUNCATED_HEADER, Malformed.UNKNOWN_VERSION, Malformed.BAD_LENGTH,
                Malformed.BAD_TEMPLATE, Malformed.TRUNCATED_RECORD)).extracting(counters::firstMessage).containsExactly(
                "exporter 192.0.2.1: 1 byte, too short for a version number",
                "exporter 192.0.2.1: version 7 at offset 0 is not NetFlow v5, v9 or IPFIX (10)",
                "exporter 192.0.2.1: IPFIX domain 0: message length 400 at offset 2, the datagram has 72 bytes",
                "exporter 192.0.2.1: IPFIX domain 0: template 256 at offset 20: field 1 (IE 8) has length 5, "
                        + "expected 4",
                "exporter 192.0.2.1: IPFIX domain 0: data record of template 300 at offset 76 runs past its set end "
                        + "at 142");
        assertThat(flows).hasSize(1); // the v5 record that is there, of the 3 its header counts
        assertThat(counters.datagrams()).isEqualTo(7);
    }
}
