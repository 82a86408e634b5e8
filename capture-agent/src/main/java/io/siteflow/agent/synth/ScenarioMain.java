package io.siteflow.agent.synth;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Writes a stretched-cluster capture and its truth from the command line (for the demo and benchmarks):
 * {@code ScenarioMain OUT.pcap [--at HOST|edge] [--seconds N] [--seed N] [--share HOST=F]... [--open-before]}.
 * The truth goes to {@code OUT.truth.json} beside the capture. Exit code 64 on wrong usage.
 */
public final class ScenarioMain {
    private ScenarioMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0 || args[0].startsWith("-")) {
            usage("missing output file");
        }
        Path out = Path.of(args[0]);
        StretchedClusterScenario.Builder b = StretchedClusterScenario.builder();
        try {
            for (int i = 1; i < args.length; i++) {
                switch (args[i]) {
                    case "--at" -> b.capturePoint(args[++i].equals("edge")
                            ? CapturePoint.regionEdge(ClusterTopology.REGION2, 75_000) : CapturePoint.host(args[i]));
                    case "--seconds" -> b.duration(Duration.ofSeconds(Long.parseLong(args[++i])));
                    case "--seed" -> b.seed(Long.parseLong(args[++i]));
                    case "--share" -> {
                        String[] kv = args[++i].split("=", 2);
                        b.dbShare(kv[0], Double.parseDouble(kv[1]));
                    }
                    case "--open-before" -> b.openBeforeCapture(true);
                    default -> usage("unknown option " + args[i]);
                }
            }
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            usage(e instanceof ArrayIndexOutOfBoundsException ? "option without a value" : e.getMessage());
        }
        ScenarioTruth truth = b.build().write(out);
        String name = out.getFileName().toString().replaceFirst("\\.pcap$", "");
        Path json = out.resolveSibling(name + ".truth.json");
        truth.writeJson(json);
        System.err.printf("%s: %d packets, %d IP bytes (%s); truth in %s%n", out, truth.packets(), truth.ipBytes(),
                truth.capturePoint(), json);
    }

    private static void usage(String problem) {
        System.err.println("scenario: " + problem);
        System.err.println("usage: ScenarioMain OUT.pcap [--at HOST|edge] [--seconds N] [--seed N] [--share HOST=F]..."
                + " [--open-before]");
        System.exit(64);
    }
}
