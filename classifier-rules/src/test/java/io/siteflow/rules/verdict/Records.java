package io.siteflow.rules.verdict;

import io.siteflow.model.FlowRecord;
import java.util.concurrent.atomic.AtomicLong;

/** Flow records for verdict tests. */
final class Records {
    private static final AtomicLong IDS = new AtomicLong();

    private Records() {
    }

    /** A TCP record from {@code src} to {@code dst}; {@code bytes} one way and {@code rbytes} back. */
    static FlowRecord tcp(String src, int srcPort, String dst, int dstPort, long bytes, long rbytes, long start,
                          long end, Long rtt, String l7) {
        return new FlowRecord(FlowRecord.SCHEMA, "agent-1", "test.pcap", start, end, 6, src, srcPort, dst, dstPort,
                bytes, 10, rbytes, 10, bytes + 140, rbytes + 140, 0x18, 0x18, rtt, l7, null, false,
                "run-1:" + IDS.incrementAndGet());
    }

    /** {@code r} with {@code calls} DB calls of {@code micros} µs each. */
    static FlowRecord withCalls(FlowRecord r, long calls, long micros) {
        return new FlowRecord(r.schema(), r.agent(), r.iface(), r.start(), r.end(), r.proto(), r.src(), r.srcPort(),
                r.dst(), r.dstPort(), r.bytes(), r.packets(), r.rbytes(), r.rpackets(), r.frameBytes(), r.rframeBytes(),
                r.tcpFlags(), r.rtcpFlags(), r.rttMicros(), r.l7(), r.sni(), r.isFinal(), r.id(), r.dataRttMicros(),
                calls, calls * micros, io.siteflow.model.CallHistogram.of(
                        java.util.Map.of(io.siteflow.model.CallHistogram.bucketOf(micros), calls)));
    }

    /** {@code r} as agent {@code agent} recorded it (same flow, the agent's own id), through the wire JSON. */
    static FlowRecord seenBy(FlowRecord r, String agent) {
        try {
            return io.siteflow.model.FlowRecordJson.parse(io.siteflow.model.FlowRecordJson.toJson(r)
                    .replace("\"agent\":\"" + r.agent() + "\"", "\"agent\":\"" + agent + "\"")
                    .replace("\"id\":\"" + r.id() + "\"", "\"id\":\"" + agent + "-" + r.id() + "\""));
        } catch (io.siteflow.model.FlowRecordFormatException e) {
            throw new AssertionError(e);
        }
    }

    static FlowRecord tcp(String src, int srcPort, String dst, int dstPort, long bytes, long rbytes, long start) {
        return tcp(src, srcPort, dst, dstPort, bytes, rbytes, start, start + 1000, null, null);
    }
}
