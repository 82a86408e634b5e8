package io.siteflow.rules.verdict;

import io.siteflow.model.CallHistogram;
import io.siteflow.model.FlowRecord;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/** Flow records for verdict tests. */
final class Records {
    private static final AtomicLong IDS = new AtomicLong();

    private Records() {
    }

    /** A TCP record from {@code src} to {@code dst}; {@code bytes} one way and {@code rbytes} back; l7 a wire name. */
    static FlowRecord tcp(String src, int srcPort, String dst, int dstPort, long bytes, long rbytes, long start,
                          long end, Long rtt, String l7) {
        return FlowRecord.builder().id("run-1:" + IDS.incrementAndGet()).agent("agent-1").iface("test.pcap")
                .time(start, end).endpoints(6, src, srcPort, dst, dstPort).forward(bytes, 10, bytes + 140, 0x18)
                .reverse(rbytes, 10, rbytes + 140, 0x18).rttMicros(rtt).l7(l7).build();
    }

    /** {@code r} with {@code calls} DB calls of {@code micros} µs each. */
    static FlowRecord withCalls(FlowRecord r, long calls, long micros) {
        return r.toBuilder().db(calls, calls * micros, CallHistogram.of(Map.of(CallHistogram.bucketOf(micros), calls)))
                .build();
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
