package io.siteflow.synth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Adds up the ground truth of the conversations a capture holds. Not thread-safe. */
final class TruthCollector {
    private record Key(String server, String remote, TrafficCategory category) {
    }

    private final CapturePoint point;
    private final Map<Key, long[]> totals = new TreeMap<>(Comparator.comparing(Key::server)
            .thenComparing(Key::remote).thenComparing(Key::category));
    private final List<ConnectionTruth> connections = new ArrayList<>();
    private final Map<String, Integer> dbConnections = new TreeMap<>();
    private final Map<String, Long> dbCalls = new TreeMap<>();

    TruthCollector(CapturePoint point) {
        this.point = point;
    }

    void add(ScenarioConversation sc) {
        Conversation c = sc.conversation();
        List<TimedFrame> frames = c.frames();
        if (frames.isEmpty()) {
            return;
        }
        ClusterHost local = point.local(sc.client(), sc.server());
        ClusterHost remote = local.equals(sc.client()) ? sc.server() : sc.client();
        long[] sum = totals.computeIfAbsent(new Key(local.address(), remote.address(), sc.category()), k -> new long[2]);
        sum[0] += c.fromClient().ipBytes() + c.fromServer().ipBytes();
        sum[1] += c.fromClient().packets() + c.fromServer().packets();
        connections.add(new ConnectionTruth(sc.category(), c.protocol(), c.client().host(), c.client().port(),
                c.server().host(), c.server().port(), c.fromClient().ipBytes(), c.fromClient().packets(),
                c.fromServer().ipBytes(), c.fromServer().packets(), c.handshakeRttMicros(), frames.get(0).tsNanos()));
        if (sc.category() == TrafficCategory.DB && c.protocol() == 6) {
            dbConnections.merge(sc.client().address(), 1, Integer::sum);
            dbCalls.merge(sc.client().address(), c.calls(), Long::sum);
        }
    }

    List<TrafficTotal> totals() {
        List<TrafficTotal> list = new ArrayList<>();
        totals.forEach((k, v) -> list.add(new TrafficTotal(k.server(), k.remote(), k.category(), v[0], v[1])));
        return list;
    }

    /** Connections in order of their first packet (ties: the order they were made). */
    List<ConnectionTruth> connections() {
        List<ConnectionTruth> sorted = new ArrayList<>(connections);
        sorted.sort(Comparator.comparingLong(ConnectionTruth::firstNanos));
        return sorted;
    }

    Map<String, Long> dbCalls() {
        return dbCalls;
    }

    Map<String, Integer> dbConnections() {
        return dbConnections;
    }
}
