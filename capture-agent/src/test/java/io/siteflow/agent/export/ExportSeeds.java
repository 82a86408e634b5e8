package io.siteflow.agent.export;

import static io.siteflow.agent.export.SflowDecoderTest.ethernet;
import static io.siteflow.agent.export.SflowDecoderTest.rawHeader;
import static io.siteflow.agent.export.SflowDecoderTest.record;
import static io.siteflow.agent.export.SflowDecoderTest.tcp;

import io.siteflow.agent.export.SflowDecoderTest.Sflow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Seeds of the flow-export fuzz harnesses ({@code fuzz/ExportDecoderFuzzTest}, {@code fuzz/SflowDecoderFuzzTest}),
 * written by the decoder tests' own encoders ({@link Datagram}, {@link Sflow}): per harness method, named sequences
 * of datagrams of a conversation between an application server and its database: templates then data, options
 * data with a sampling rate, RFC 5103 biflows, IPv6 and NTP times, a withdrawal, counter samples. Called by
 * {@code fuzz/SeedCorpus}.
 */
public final class ExportSeeds {
    private static final long SECS = 1_764_000_000L;
    private static final String A = "10.2.0.20";
    private static final String B = "10.1.0.10";

    private ExportSeeds() {
    }

    /** Per harness method, per seed name, the datagrams in order. */
    public static Map<String, Map<String, List<byte[]>>> all() {
        Map<String, Map<String, List<byte[]>>> all = new LinkedHashMap<>();
        all.put("ExportDecoderFuzzTestInputs/decodesAnyNetFlowV5Datagrams", v5());
        all.put("ExportDecoderFuzzTestInputs/decodesAnyNetFlowV9Datagrams", v9());
        all.put("ExportDecoderFuzzTestInputs/decodesAnyIpfixMessages", ipfix());
        all.put("SflowDecoderFuzzTestInputs/decodesAnySflowDatagrams", sflow());
        return all;
    }

    private static Map<String, List<byte[]>> v5() {
        Map<String, List<byte[]>> seeds = new LinkedHashMap<>();
        seeds.put("tcp-both-directions", List.of(Datagram.v5(2, 10_000, SECS, 500_000_000, 100, 0x0102, 0)
                .v5Record(Datagram.ip(A), Datagram.ip(B), 10, 5_200, 4_000, 9_000, 40112, 1521, 0x1B, 6)
                .v5Record(Datagram.ip(B), Datagram.ip(A), 8, 41_000, 4_001, 9_001, 1521, 40112, 0x1A, 6)
                .build().array()));
        seeds.put("sampled-with-a-gap", List.of(
                Datagram.v5(1, 0, SECS, 0, 0, 0, 0x4000 | 100).v5Record(1, 2, 3, 120, 0, 0, 1, 2, 0, 17)
                        .build().array(),
                Datagram.v5(1, 0, SECS, 0, 5, 0, 0x4000 | 100).v5Record(1, 2, 3, 120, 0, 0, 1, 2, 0, 17)
                        .build().array()));
        return seeds;
    }

    private static Datagram v9Template(Datagram d) {
        return d.set(0).u16(256).u16(10).u16(8).u16(4).u16(12).u16(4).u16(7).u16(2).u16(11).u16(2).u16(4).u16(1)
                .u16(6).u16(1).u16(1).u16(4).u16(2).u16(4).u16(22).u16(4).u16(21).u16(4).endSet();
    }

    private static Datagram v9Record(Datagram d, String src, String dst, int srcPort, int dstPort, long bytes) {
        return d.ip4(src).ip4(dst).u16(srcPort).u16(dstPort).u8(6).u8(0x1B).u32(bytes).u32(12).u32(4_000)
                .u32(9_000);
    }

    private static Map<String, List<byte[]>> v9() {
        Map<String, List<byte[]>> seeds = new LinkedHashMap<>();
        seeds.put("template-then-data", List.of(v9Template(Datagram.v9(10_000, SECS, 0, 7)).build().array(),
                v9Record(v9Record(Datagram.v9(10_000, SECS, 1, 7).set(256), A, B, 40112, 1521, 5_200), B, A, 1521,
                        40112, 41_000).endSet().build().array()));
        seeds.put("options-sampling-then-data", List.of(v9Template(Datagram.v9(0, SECS, 0, 0)
                        .set(1).u16(257).u16(4).u16(8).u16(1).u16(4).u16(34).u16(4).u16(35).u16(1).u16(0).endSet()
                        .set(257).u32(0).u32(50).u8(2).u16(0).u8(0).endSet()).build().array(),
                v9Record(Datagram.v9(0, SECS, 1, 0).set(256), A, B, 40112, 1521, 100).endSet().build().array()));
        return seeds;
    }

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

    private static Map<String, List<byte[]>> ipfix() {
        Map<String, List<byte[]>> seeds = new LinkedHashMap<>();
        seeds.put("template-and-variable-length-data", List.of(ipfixRecord(ipfixRecord(ipfixTemplate(
                Datagram.ipfix(SECS, 0, 3), 300).set(300), 1_000, "eth0".getBytes()), 2_000, new byte[300])
                .endSet().build().array()));
        seeds.put("options-sampling-then-data", List.of(ipfixTemplate(Datagram.ipfix(SECS, 0, 5), 300)
                        .set(3).u16(400).u16(3).u16(1).u16(149).u16(4).u16(305).u16(4).u16(306).u16(4).endSet()
                        .set(400).u32(5).u32(1).u32(99).endSet().build().array(),
                ipfixRecord(Datagram.ipfix(SECS, 1, 5).set(300), 1_000, new byte[0]).endSet().build().array()));
        seeds.put("biflow", List.of(Datagram.ipfix(SECS, 0, 0).set(2).u16(256).u16(11).u16(8).u16(4).u16(12)
                .u16(4).u16(7).u16(2).u16(11).u16(2).u16(4).u16(1).u16(1).u16(8).u16(2).u16(8).u16(6).u16(1)
                .u16(0x8001).u16(8).u32(29305).u16(0x8002).u16(8).u32(29305).u16(0x8006).u16(1).u32(29305).endSet()
                .set(256).ip4(A).ip4(B).u16(40112).u16(1521).u8(6).u64(5_200).u64(10).u8(0x02)
                .u64(41_000).u64(8).u8(0x12).endSet().build().array()));
        byte[] a = v6(0x20);
        byte[] b = v6(0x0a);
        long ntp = SECS + 2_208_988_800L;
        seeds.put("ipv6-ntp-times", List.of(Datagram.ipfix(SECS, 0, 0).set(2).u16(256).u16(7).u16(27).u16(16)
                .u16(28).u16(16).u16(7).u16(2).u16(11).u16(2).u16(4).u16(1).u16(156).u16(8).u16(157).u16(8).endSet()
                .set(256).bytes(a).bytes(b).u16(7574).u16(7574).u8(17).u32(ntp).u32(0x8000_0000L)
                .u32(ntp + 1).u32(0).endSet().build().array()));
        seeds.put("withdrawal", List.of(ipfixTemplate(Datagram.ipfix(SECS, 0, 0), 300).build().array(),
                Datagram.ipfix(SECS, 0, 0).set(2).u16(300).u16(0).endSet().build().array(),
                ipfixRecord(Datagram.ipfix(SECS, 0, 0).set(300), 1, new byte[0]).endSet().build().array()));
        return seeds;
    }

    private static byte[] v6(int last) {
        byte[] a = new byte[16];
        a[0] = 0x20;
        a[1] = 0x01;
        a[2] = 0x0d;
        a[3] = (byte) 0xb8;
        a[15] = (byte) last;
        return a;
    }

    private static Map<String, List<byte[]>> sflow() {
        Map<String, List<byte[]>> seeds = new LinkedHashMap<>();
        seeds.put("flow-and-counter-samples", List.of(new Sflow("10.9.0.1", 3, 1)
                .flowSample(7, 10, 1000, 0, rawHeader(1, 1518, 4, ethernet(tcp(A, 40112, B, 1521, 0x02, 1500))))
                .counterSample(record(1, new byte[88]), record(2, new byte[52])).build().array(),
                new Sflow("10.9.0.1", 3, 2).flowSample(7, 10, 1010, 2,
                        rawHeader(1, 1518, 4, ethernet(tcp(B, 1521, A, 40112, 0x12, 1500)))).build().array()));
        seeds.put("expanded-ipv6-agent-raw-ip", List.of(new Sflow("2001:db8::9", 0, 1)
                .sample(0, 1001, new byte[] {1, 2, 3, 4})
                .expandedFlowSample(9, 0, 0, record(1001, new byte[8]),
                        rawHeader(11, 1500, 0, tcp(A, 40112, B, 1521, 0x10, 1400)))
                .expandedCounterSample(record(1, new byte[88])).build().array()));
        return seeds;
    }
}
