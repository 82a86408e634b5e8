package io.siteflow.synth;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What the traffic generators share: the seeded random source, the time span, the topology, the capture
 * point (for path delays) and the list of conversations made so far. Ephemeral ports are handed out per
 * host in increasing order from a random start (32768-60999), so they never repeat within a scenario.
 * Not thread-safe.
 */
final class TrafficContext {
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000_000_000L;
    private static final int FIRST_EPHEMERAL = 32768;
    private static final int LAST_EPHEMERAL = 60999;

    final Random random;
    final long start;
    final long end;
    final ClusterTopology topology;
    final CapturePoint point;
    final boolean openBeforeCapture;
    final List<ScenarioConversation> conversations = new ArrayList<>();
    private final Map<String, Integer> nextPort = new HashMap<>();

    TrafficContext(long seed, long start, long durationNanos, ClusterTopology topology, CapturePoint point,
            boolean openBeforeCapture) {
        this.random = new Random(seed);
        this.start = start;
        this.end = start + durationNanos;
        this.topology = topology;
        this.point = point;
        this.openBeforeCapture = openBeforeCapture;
    }

    /** A new TCP conversation from an ephemeral port of {@code client} to {@code server:port}, not yet open. */
    TcpConversation tcp(TrafficCategory category, ClusterHost client, ClusterHost server, int port) {
        long[] d = point.delays(client, server, topology.oneWayNanos(client, server));
        TcpConversation c = TcpConversation.between(client.at(ephemeralPort(client)), server.at(port))
                .delays(d[0], d[1]).isn(random.nextInt(), random.nextInt())
                .ipIds(random.nextInt(), random.nextInt()).build();
        conversations.add(new ScenarioConversation(category, client, server, c));
        return c;
    }

    /** Opens {@code c} at {@code t} with a handshake, or as already established when pools opened before the capture. */
    boolean open(TcpConversation c, long t) {
        if (openBeforeCapture) {
            c.established(start);
            return false;
        }
        c.connect(t);
        return true;
    }

    /** A new UDP conversation; {@code clientPort} 0 takes an ephemeral port. */
    UdpExchange udp(TrafficCategory category, ClusterHost client, int clientPort, ClusterHost server, int port) {
        long[] d = point.delays(client, server, topology.oneWayNanos(client, server));
        int cp = clientPort == 0 ? ephemeralPort(client) : clientPort;
        UdpExchange u = new UdpExchange(client.at(cp), server.at(port), d[0], d[1])
                .ipIds(random.nextInt(), random.nextInt());
        conversations.add(new ScenarioConversation(category, client, server, u));
        return u;
    }

    private int ephemeralPort(ClusterHost host) {
        int port = nextPort.computeIfAbsent(host.name(),
                h -> FIRST_EPHEMERAL + random.nextInt((LAST_EPHEMERAL - FIRST_EPHEMERAL) / 2));
        if (port > LAST_EPHEMERAL) {
            throw new IllegalStateException(host.name() + ": out of ephemeral ports");
        }
        nextPort.put(host.name(), port + 1 + random.nextInt(3));
        return port;
    }

    /** Uniform in [from, to). */
    long uniform(long from, long to) {
        return from + (long) (random.nextDouble() * (to - from));
    }

    /** Uniform integer in [lo, hi]. */
    int between(int lo, int hi) {
        return lo + random.nextInt(hi - lo + 1);
    }

    /** Log-normal with the given median and shape, clamped to [min, max]. */
    int logNormal(double median, double sigma, int min, int max) {
        double v = median * Math.exp(sigma * random.nextGaussian());
        return (int) Math.max(min, Math.min(max, Math.round(v)));
    }

    /** Exponentially distributed gap with the given mean. */
    long exponential(long meanNanos) {
        return (long) (-Math.log(1 - random.nextDouble()) * meanNanos);
    }

    /** Event times from {@code from} to the end, a mean {@code meanGap} apart (a Poisson process). */
    List<Long> poisson(long from, long meanGap) {
        List<Long> times = new ArrayList<>();
        for (long t = from + exponential(meanGap); t < end; t += exponential(meanGap)) {
            times.add(t);
        }
        return times;
    }

    /** Event times every {@code period} from {@code first} (with up to 1% jitter) until the end. */
    List<Long> periodic(long first, long period) {
        List<Long> times = new ArrayList<>();
        for (long t = first; t < end; t += period) {
            times.add(t + uniform(0, period / 100));
        }
        return times;
    }
}
