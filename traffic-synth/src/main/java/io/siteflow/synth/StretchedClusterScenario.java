package io.siteflow.synth;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A realistic Oracle FMW cluster stretched over two regions (see {@link ClusterTopology} and
 * {@code traffic-synth/docs/synthetic-captures.md}), written as a pcap file together with its ground truth.
 * Deterministic: the same settings give byte-identical files and equal truths.
 *
 * <pre>{@code
 * ScenarioTruth truth = StretchedClusterScenario.builder()
 *         .dbShare("wls3", 0.93).dbShare("wls4", 0.80)
 *         .capturePoint(CapturePoint.host("wls3")).duration(Duration.ofSeconds(60))
 *         .build().write(Path.of("wls3.pcap"));
 * }</pre>
 * Immutable once built; {@link #write} may be called from several threads with different files.
 */
public final class StretchedClusterScenario {
    private final Builder b;

    private StretchedClusterScenario(Builder b) {
        this.b = b;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Generates the traffic and writes the frames the capture point sees to {@code pcap}.
     *
     * @return the ground truth of what was written
     * @throws IOException when the file cannot be written
     */
    public ScenarioTruth write(Path pcap) throws IOException {
        ClusterTopology topology = new ClusterTopology(b.interRttMicros, b.intraRttMicros);
        long start = b.start.getEpochSecond() * 1_000_000_000L + b.start.getNano();
        TrafficContext ctx = new TrafficContext(b.seed, start, b.duration.toNanos(), topology, b.point, b.openBefore);
        new ClusterTraffic(ctx).generate();
        new DbTraffic(ctx, b.dbServiceNanos).generate(b.localPoolSize, b.shares, b.localDbBytesPerSecond);

        TruthCollector truth = new TruthCollector(b.point);
        List<TimedFrame> frames = new ArrayList<>();
        for (ScenarioConversation sc : ctx.conversations) {
            if (b.point.sees(sc.client(), sc.server())) {
                truth.add(sc);
                frames.addAll(sc.conversation().frames());
            }
        }
        frames.sort(Comparator.comparingLong(TimedFrame::tsNanos));
        long ipBytes = 0;
        try (PcapWriter w = PcapWriter.create(pcap, b.resolution, b.snaplen)) {
            for (TimedFrame f : frames) {
                w.write(f.tsNanos(), f.frame());
                ipBytes += f.ipBytes();
            }
        }
        return new ScenarioTruth(b.point.describe(), b.seed, start, b.duration.toNanos(),
                topology.interRegionRttMicros(), topology.intraRegionRttMicros(), topology.hosts(), frames.size(),
                ipBytes, truth.totals(), truth.connections(), truth.dbConnections(),
                truth.dbCalls());
    }

    /** Settings; defaults in the setters' descriptions. Not thread-safe. */
    public static final class Builder {
        private long seed = 42;
        private Instant start = Instant.parse("2025-11-24T16:00:00Z");
        private Duration duration = Duration.ofSeconds(60);
        private long dbServiceNanos = -1;
        private final Map<String, Double> shares = new LinkedHashMap<>(Map.of("wls3", 0.93, "wls4", 0.80));
        private int localPoolSize = 10;
        private long localDbBytesPerSecond = 100_000;
        private CapturePoint point = CapturePoint.host("wls3");
        private boolean openBefore;
        private long interRttMicros = 6500;
        private long intraRttMicros = 300;
        private int snaplen = 65535;
        private PcapWriter.Resolution resolution = PcapWriter.Resolution.NANOS;

        private Builder() {
        }

        /** Random seed (default 42). */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Time of the capture's start (default 2025-11-24T16:00:00Z). */
        public Builder start(Instant start) {
            this.start = start;
            return this;
        }

        /** Length of the traffic, at least 5 s (default 60 s). */
        public Builder duration(Duration d) {
            if (d.compareTo(Duration.ofSeconds(5)) < 0) {
                throw new IllegalArgumentException("duration " + d + " is below 5 s");
            }
            this.duration = d;
            return this;
        }

        /** DB share of a region-2 server's cross-site bytes, in (0, 1) (defaults wls3 0.93, wls4 0.80). */
        public Builder dbShare(String server, double share) {
            if (!(share > 0 && share < 1)) {
                throw new IllegalArgumentException(server + ": DB share " + share + " is not in (0, 1)");
            }
            new ClusterTopology(interRttMicros, intraRttMicros).host(server);
            shares.put(server, share);
            return this;
        }

        /** DB connections per server in the database's region; the others hold twice as many (default 10). */
        public Builder dbPoolSize(int local) {
            if (local < 1) {
                throw new IllegalArgumentException("pool size " + local + " is below 1");
            }
            this.localPoolSize = local;
            return this;
        }

        /** DB bytes per second of servers without a DB share (default 100 000). */
        public Builder localDbBytesPerSecond(long rate) {
            this.localDbBytesPerSecond = rate;
            return this;
        }

        /** Where the capture is taken (default on wls3's interface). */
        public Builder capturePoint(CapturePoint point) {
            if (point instanceof CapturePoint.AtHost h) {
                new ClusterTopology(interRttMicros, intraRttMicros).host(h.hostName());
            }
            if (point instanceof CapturePoint.EdgeAndHost e) {
                new ClusterTopology(interRttMicros, intraRttMicros).host(e.host().hostName());
            }
            this.point = point;
            return this;
        }

        /** True: long-lived connections were opened before the capture began, so no handshakes (default false). */
        public Builder openBeforeCapture(boolean before) {
            this.openBefore = before;
            return this;
        }

        /** Region RTTs in microseconds (defaults 6500 between regions, 300 within one). */
        public Builder rttMicros(long interRegion, long intraRegion) {
            new ClusterTopology(interRegion, intraRegion);
            this.interRttMicros = interRegion;
            this.intraRttMicros = intraRegion;
            return this;
        }

        /**
         * The database's service time of every SQL round trip: the time between the last request byte reaching
         * db1 and its first response byte (default: random, uniform 0.2-5 ms). A call then costs, at the app
         * server, its RTT to db1 plus this.
         */
        public Builder dbServiceTime(Duration d) {
            if (d.isNegative()) {
                throw new IllegalArgumentException("DB service time " + d + " is negative");
            }
            this.dbServiceNanos = d.toNanos();
            return this;
        }

        /** Bytes kept per frame in the file (default 65535); byte counts always use the full length. */
        public Builder snaplen(int snaplen) {
            this.snaplen = snaplen;
            return this;
        }

        /** Timestamp resolution of the file (default nanoseconds). */
        public Builder resolution(PcapWriter.Resolution resolution) {
            this.resolution = resolution;
            return this;
        }

        public StretchedClusterScenario build() {
            Builder copy = new Builder();
            copy.seed = seed;
            copy.start = start;
            copy.duration = duration;
            copy.shares.clear();
            copy.shares.putAll(shares);
            copy.localPoolSize = localPoolSize;
            copy.localDbBytesPerSecond = localDbBytesPerSecond;
            copy.point = point;
            copy.openBefore = openBefore;
            copy.interRttMicros = interRttMicros;
            copy.intraRttMicros = intraRttMicros;
            copy.snaplen = snaplen;
            copy.resolution = resolution;
            copy.dbServiceNanos = dbServiceNanos;
            return new StretchedClusterScenario(copy);
        }
    }
}
