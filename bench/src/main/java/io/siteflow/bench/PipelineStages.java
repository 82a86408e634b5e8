package io.siteflow.bench;

import io.siteflow.agent.pipeline.CapturePipeline;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.L7Tracker;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.publish.json.JsonLinesSink;
import io.siteflow.model.FlowRecord;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Cost per packet of each stage of the agent's file path, in one JVM, as thread CPU time (robust on a shared
 * machine): {@code read} (reader, no-op handler), {@code decode} (+ decoder), {@code flow} (+ pipeline and flow
 * table, records dropped), {@code json} (+ JSON lines to a null writer), for several reader buffer sizes.
 * Usage: {@code PipelineStages FILE [ROUNDS] [BUFFER_KB,...]} (defaults 2 rounds, 8192,1024 KB). The buffer size is
 * set through the reader's package-private {@code open(Path, int)} (reflection; for this experiment only).
 */
public final class PipelineStages {
    private static long blackhole;

    private PipelineStages() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int[] buffersKb = Arrays.stream((args.length > 2 ? args[2] : "8192,1024").split(","))
                .mapToInt(Integer::parseInt).toArray();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < rounds; round++) {
            for (String stage : List.of("read", "decode", "flow", "json")) {
                for (int kb : buffersKb) {
                    PacketHandler h = stage(stage);
                    long c0 = mx.getCurrentThreadCpuTime();
                    long n;
                    try (CaptureFileReader r = open(file, kb << 10)) {
                        r.run(h);
                        n = r.stats().received();
                    }
                    long cpu = mx.getCurrentThreadCpuTime() - c0;
                    System.out.printf("round %d  %-6s  buffer %5d KiB  %d packets  cpu %.2f s  %.0f ns/packet%n",
                            round, stage, kb, n, cpu / 1e9, cpu / (double) n);
                }
            }
        }
        System.err.println(blackhole == 42 ? "" : "done");
    }

    private static CaptureFileReader open(Path file, int bufferSize) throws Exception {
        Method m = CaptureFileReader.class.getDeclaredMethod("open", Path.class, int.class);
        m.setAccessible(true);
        return (CaptureFileReader) m.invoke(null, file, bufferSize);
    }

    private static PacketHandler stage(String name) {
        switch (name) {
            case "read":
                return (ts, lt, d, o, c, w) -> blackhole += c;
            case "decode": {
                PacketDecoder decoder = new PacketDecoder();
                Packet p = new Packet();
                return (ts, lt, d, o, c, w) -> {
                    decoder.decode(lt, d, o, c, w, p);
                    blackhole += p.ipBytes;
                };
            }
            default: {
                FlowSink sink = name.equals("json") ? new JsonLinesSink(Writer.nullWriter(), true) : new FlowSink() {
                    @Override
                    public void accept(FlowRecord r) {
                        blackhole += r.bytes();
                    }

                    @Override
                    public void close() {
                    }
                };
                FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS, new RecordFactory("bench", "file", "run"), sink,
                        L7Tracker.NONE);
                return new CapturePipeline(new RemoteSiteFilter(List.of()), table, null, lt -> { });
            }
        }
    }
}
