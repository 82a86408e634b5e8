package io.siteflow.synth;

/**
 * Where a synthetic capture is taken: on one host's own interface (a host agent) or at a region's edge
 * (an edge agent that sees only traffic leaving or entering the region). Decides which conversations the
 * capture holds, which end is the local "server" of the ground truth, and the path delays on each side.
 */
public sealed interface CapturePoint permits CapturePoint.AtHost, CapturePoint.AtRegionEdge, CapturePoint.EdgeAndHost {

    /** On {@code hostName}'s own interface: it sees every conversation of that host; its own side has no delay. */
    static CapturePoint host(String hostName) {
        return new AtHost(hostName);
    }

    /** At the edge of {@code region}, {@code edgeDelayNanos} one way from the hosts inside it. */
    static CapturePoint regionEdge(String region, long edgeDelayNanos) {
        return new AtRegionEdge(region, edgeDelayNanos);
    }

    /**
     * The edge of {@code region} and the interface of {@code hostName} (a host of another region) together, as
     * two agents would see them, each conversation once: the edge's view of those crossing the edge, the host's
     * of the host's others (the demo: its region-1 server's DB calls beside the region-2 servers').
     */
    static CapturePoint regionEdgeAndHost(String region, long edgeDelayNanos, String hostName) {
        return new EdgeAndHost(new AtRegionEdge(region, edgeDelayNanos), new AtHost(hostName));
    }

    /** True when a conversation between {@code a} and {@code b} passes this point. */
    boolean sees(ClusterHost a, ClusterHost b);

    /** Of two ends of a conversation this point sees, the one on its side. */
    ClusterHost local(ClusterHost a, ClusterHost b);

    /**
     * One-way delays {client ↔ point, point ↔ server} for a conversation with one-way path delay
     * {@code pathNanos}; their sum is always {@code pathNanos}.
     */
    long[] delays(ClusterHost client, ClusterHost server, long pathNanos);

    /** Short text for the ground truth ("host wls3", "edge region2"). */
    String describe();

    /** On a host's interface. */
    record AtHost(String hostName) implements CapturePoint {
        @Override
        public boolean sees(ClusterHost a, ClusterHost b) {
            return a.name().equals(hostName) || b.name().equals(hostName);
        }

        @Override
        public ClusterHost local(ClusterHost a, ClusterHost b) {
            return a.name().equals(hostName) ? a : b;
        }

        @Override
        public long[] delays(ClusterHost client, ClusterHost server, long pathNanos) {
            return server.name().equals(hostName) ? new long[] {pathNanos, 0} : new long[] {0, pathNanos};
        }

        @Override
        public String describe() {
            return "host " + hostName;
        }
    }

    /** At a region's edge. */
    record AtRegionEdge(String region, long edgeDelayNanos) implements CapturePoint {
        public AtRegionEdge {
            if (edgeDelayNanos < 0) {
                throw new IllegalArgumentException("edge delay must not be negative: " + edgeDelayNanos);
            }
        }

        @Override
        public boolean sees(ClusterHost a, ClusterHost b) {
            return a.region().equals(region) != b.region().equals(region);
        }

        @Override
        public ClusterHost local(ClusterHost a, ClusterHost b) {
            return a.region().equals(region) ? a : b;
        }

        @Override
        public long[] delays(ClusterHost client, ClusterHost server, long pathNanos) {
            if (!sees(client, server)) {
                return new long[] {0, pathNanos};
            }
            long inside = Math.min(edgeDelayNanos, pathNanos);
            return client.region().equals(region) ? new long[] {inside, pathNanos - inside}
                    : new long[] {pathNanos - inside, inside};
        }

        @Override
        public String describe() {
            return "edge " + region;
        }
    }

    /** A region's edge and one host's interface: the edge's view where it sees a conversation, else the host's. */
    record EdgeAndHost(AtRegionEdge edge, AtHost host) implements CapturePoint {
        @Override
        public boolean sees(ClusterHost a, ClusterHost b) {
            return edge.sees(a, b) || host.sees(a, b);
        }

        @Override
        public ClusterHost local(ClusterHost a, ClusterHost b) {
            return edge.sees(a, b) ? edge.local(a, b) : host.local(a, b);
        }

        @Override
        public long[] delays(ClusterHost client, ClusterHost server, long pathNanos) {
            return edge.sees(client, server) ? edge.delays(client, server, pathNanos)
                    : host.delays(client, server, pathNanos);
        }

        @Override
        public String describe() {
            return edge.describe() + " and " + host.describe();
        }
    }
}
