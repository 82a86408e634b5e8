package io.siteflow.bench;

import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.pipeline.Pipeline;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The agent's offline packet rate with DB call timing on and off, on one capture, in one JVM: the capture is read
 * through the agent's own wiring ({@link Pipeline}, reader → decode → flow table → a sink that counts), alternating
 * on and off for {@code ROUNDS} rounds after one warm-up round of each; the best round of each counts. Prints one
 * Markdown table row per setting and the ratio, and the DB calls the "on" rounds timed (to show the capture has some).
 *
 * <p>Usage: {@code DbCallTimingBench FILE [ROUNDS]} (default 5).
 */
public final class DbCallTimingBench {
    private DbCallTimingBench() {
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        long[] best = {Long.MAX_VALUE, Long.MAX_VALUE};
        long[] calls = new long[2];
        long packets = 0;
        for (int r = -1; r < rounds; r++) {
            for (int on = 1; on >= 0; on--) {
                long[] counted = new long[1];
                long t0 = System.nanoTime();
                packets = run(file, FlowTableConfig.DEFAULTS.withDbCallTiming(on == 1), counted);
                long ns = System.nanoTime() - t0;
                if (r >= 0) {
                    best[on] = Math.min(best[on], ns);
                }
                calls[on] = counted[0];
            }
        }
        System.out.println("| DB call timing | packets | best of " + rounds + " | packets/s | DB calls |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (int on = 1; on >= 0; on--) {
            System.out.printf(Locale.ROOT, "| %s | %d | %.3f s | %.0f | %d |%n", on == 1 ? "on" : "off", packets,
                    best[on] / 1e9, packets / (best[on] / 1e9), calls[on]);
        }
        System.out.printf(Locale.ROOT, "%nrate on / off: %.3f%n", (double) best[0] / best[1]);
    }

    /** One pass; returns the packets read and puts the DB calls of the records in {@code calls[0]}. */
    private static long run(Path file, FlowTableConfig config, long[] calls) throws Exception {
        FlowSink sink = FlowSink.to(r -> calls[0] += r.dbCalls());
        try (CaptureFileReader reader = CaptureFileReader.open(file)) {
            Pipeline p = Pipeline.wire(file.getFileName().toString(),
                    new Pipeline.Settings("bench", "bench", config, new RemoteSiteFilter(List.of()), null), sink);
            p.run(reader, false);
            return p.counters().packets();
        }
    }
}
