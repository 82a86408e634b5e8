package io.siteflow.bench;

import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.pipeline.CapturePipeline;
import io.siteflow.agent.signature.SignatureL7Tracker;
import io.siteflow.model.FlowRecord;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;

/**
 * Heap per flow of the agent's flow table, in the JVM's own numbers: heap in use after a full collection
 * ({@link MemoryMXBean}) before the table, with the empty table of {@code MAX_FLOWS} slots (preallocated), and
 * after {@code MAX_FLOWS} distinct TCP flows (one SYN each, 10.2.0.0/16 sources, ports 1024-65535, to
 * 10.1.0.1:443) went through the agent's per-packet path ({@link CapturePipeline}: decode, filter, flow table
 * with the signature tracker). Usage: {@code FlowMemory [MAX_FLOWS]} (default 1048576); run with the launcher's
 * {@code -XX:+UseParallelGC}.
 */
public final class FlowMemory {
    private FlowMemory() {
    }

    public static void main(String[] args) {
        int max = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
        long[] exported = new long[1];
        FlowSink sink = new FlowSink() {
            @Override
            public void accept(FlowRecord r) {
                exported[0]++;
            }

            @Override
            public void close() {
            }
        };
        long before = usedAfterGc();
        FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS.withMaxFlows(max),
                new RecordFactory("mem", "eth0", "run"), sink, new SignatureL7Tracker());
        CapturePipeline pipeline = new CapturePipeline(new RemoteSiteFilter(List.of()), table, null, lt -> { });
        long empty = usedAfterGc();
        byte[] frame = synFrame();
        for (int i = 0; i < max; i++) {
            int host = i / 64_512;
            int port = 1024 + i % 64_512;
            frame[28] = (byte) (host >>> 8);
            frame[29] = (byte) host;
            frame[34] = (byte) (port >>> 8);
            frame[35] = (byte) port;
            pipeline.onPacket(1_000_000_000L + i * 1_000L, 1, frame, 0, frame.length, frame.length);
        }
        long full = usedAfterGc();
        System.out.printf("max flows %d; active flows %d; records exported %d; evictions %d%n", max, table.size(),
                exported[0], table.evictions());
        System.out.printf("heap after GC: before the table %d B; empty table %d B (+%d B, %.1f B per slot); "
                + "full table %d B (+%d B, %.1f B per active flow)%n", before, empty, empty - before,
                (empty - before) / (double) max, full, full - before, (full - before) / (double) table.size());
    }

    private static long usedAfterGc() {
        MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return mx.getHeapMemoryUsage().getUsed();
    }

    /** Ethernet, IPv4 10.2.0.0 -> 10.1.0.1, TCP SYN port 0 -> 443; bytes 28-29 and 34-35 are set per flow. */
    private static byte[] synFrame() {
        byte[] f = new byte[54];
        f[12] = 0x08;
        f[14] = 0x45;
        f[17] = 40;
        f[22] = 64;
        f[23] = 6;
        f[26] = 10;
        f[27] = 2;
        f[30] = 10;
        f[31] = 1;
        f[33] = 1;
        f[36] = 0x01;
        f[37] = (byte) 0xbb;
        f[46] = 0x50;
        f[47] = 0x02;
        f[48] = (byte) 0xff;
        f[49] = (byte) 0xff;
        return f;
    }
}
