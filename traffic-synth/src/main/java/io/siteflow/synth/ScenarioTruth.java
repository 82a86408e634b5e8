package io.siteflow.synth;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a synthetic capture holds, computed from the frames that were written (never from a decoder):
 * per (local server, remote address, category) IP bytes and packets, every connection with its handshake
 * RTT, and the database connections and DB calls (request/response exchanges on them) per app server. The local server of a conversation is its end on the
 * capture point's side (the captured host itself, or the end inside the edge's region). Addresses are
 * text; lists are in a fixed order, so equal scenarios give equal truths and equal JSON. Immutable.
 */
public record ScenarioTruth(String capturePoint, long seed, long startNanos, long durationNanos,
        long interRegionRttMicros, long intraRegionRttMicros, List<ClusterHost> hosts, long packets, long ipBytes,
        List<TrafficTotal> totals, List<ConnectionTruth> connections, Map<String, Integer> dbConnections,
        Map<String, Long> dbCalls) {

    public ScenarioTruth {
        hosts = List.copyOf(hosts);
        totals = List.copyOf(totals);
        connections = List.copyOf(connections);
        dbConnections = Collections.unmodifiableMap(new TreeMap<>(dbConnections));
        dbCalls = Collections.unmodifiableMap(new TreeMap<>(dbCalls));
    }

    /** IP bytes of both directions between {@code server} and each remote address, all categories. */
    public Map<String, Long> bytesByRemote(String server) {
        Map<String, Long> m = new TreeMap<>();
        totals.stream().filter(t -> t.server().equals(server)).forEach(t -> m.merge(t.remote(), t.bytes(), Long::sum));
        return m;
    }

    /** Bytes between {@code server} and addresses in other regions, per category. */
    public Map<TrafficCategory, Long> crossSiteByCategory(String server) {
        Map<TrafficCategory, Long> m = new TreeMap<>();
        for (TrafficTotal t : totals) {
            if (t.server().equals(server) && !region(t.remote()).equals(region(server))) {
                m.merge(t.category(), t.bytes(), Long::sum);
            }
        }
        return m;
    }

    /** Bytes between {@code server} and addresses in other regions. */
    public long crossSiteBytes(String server) {
        return crossSiteByCategory(server).values().stream().mapToLong(Long::longValue).sum();
    }

    /** DB bytes / cross-site bytes of {@code server}; 0 when it has no cross-site bytes. */
    public double dbShare(String server) {
        long cross = crossSiteBytes(server);
        return cross == 0 ? 0 : (double) crossSiteByCategory(server).getOrDefault(TrafficCategory.DB, 0L) / cross;
    }

    /** The region of a cluster address, or "unknown". */
    public String region(String address) {
        return hosts.stream().filter(h -> h.address().equals(address)).map(ClusterHost::region).findFirst()
                .orElse("unknown");
    }

    /** The truth as JSON (one object, fixed field order). */
    public String toJson() {
        return TruthJson.write(this);
    }

    /** Writes {@link #toJson()} to {@code file} (UTF-8). */
    public void writeJson(Path file) throws IOException {
        java.nio.file.Files.writeString(file, toJson() + "\n");
    }
}
