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

    static FlowRecord tcp(String src, int srcPort, String dst, int dstPort, long bytes, long rbytes, long start) {
        return tcp(src, srcPort, dst, dstPort, bytes, rbytes, start, start + 1000, null, null);
    }
}
