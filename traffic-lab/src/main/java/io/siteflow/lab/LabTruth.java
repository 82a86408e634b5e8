package io.siteflow.lab;

import io.siteflow.synth.TrafficCategory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one lab run put on the wire, as counted on the router's region-2 interface ({@link WireCounter}):
 * every conversation with its IP bytes and packets each way, and the counter's own totals. All traffic
 * crosses the router, so every byte here is cross-site. Immutable.
 *
 * @param prefix        the lab's namespace prefix
 * @param iface         the interface counted ({@code rt-r2} in namespace {@code PREFIX-rt})
 * @param delayMicros   the bridge's one-way delay
 * @param startMillis   epoch ms when counting began (before the first connection)
 * @param endMillis     epoch ms when counting ended (after the last connection closed)
 * @param targetShares  the DB share asked for each region-2 host, by address
 * @param packets       IPv4 packets counted
 * @param ipBytes       their IP bytes
 * @param otherFrames   frames that were not IPv4 (expected 0)
 * @param droppedKernel frames the counter's capture dropped (the truth is exact only when 0)
 * @param dbCalls       each region-2 host's DB calls on the lab's own clock, by address ({@link DbCallTruth})
 */
public record LabTruth(String prefix, String iface, long delayMicros, long startMillis, long endMillis,
        Map<String, Double> targetShares, long packets, long ipBytes, long otherFrames, long droppedKernel,
        List<ConversationTruth> conversations, Map<String, DbCallTruth> dbCalls) {

    public LabTruth {
        targetShares = Map.copyOf(targetShares);
        dbCalls = Map.copyOf(dbCalls);
        conversations = List.copyOf(conversations);
    }

    /** IP bytes, both directions, of all of {@code host}'s conversations (its cross-site bytes). */
    public long crossBytes(String host) {
        return conversations.stream().filter(c -> c.client().equals(host)).mapToLong(ConversationTruth::totalBytes)
                .sum();
    }

    /** IP bytes of {@code host}'s conversations in {@code category}. */
    public long bytes(String host, TrafficCategory category) {
        return conversations.stream().filter(c -> c.client().equals(host) && c.category() == category)
                .mapToLong(ConversationTruth::totalBytes).sum();
    }

    /** DB bytes / cross bytes of {@code host}; 0 when it had no traffic. */
    public double dbShare(String host) {
        long cross = crossBytes(host);
        return cross == 0 ? 0 : (double) bytes(host, TrafficCategory.DB) / cross;
    }

    /** Per category IP bytes of {@code host}, in category order, categories without bytes left out. */
    public Map<TrafficCategory, Long> categories(String host) {
        Map<TrafficCategory, Long> m = new TreeMap<>();
        for (ConversationTruth c : conversations) {
            if (c.client().equals(host)) {
                m.merge(c.category(), c.totalBytes(), Long::sum);
            }
        }
        return m;
    }

    /**
     * Per IP pair ({@code "a b"}, the lower address first as strings compare) {packets, IP bytes} of both
     * directions: what {@code iftop} shows per line and the agent's records add up to.
     */
    public Map<String, long[]> pairs() {
        Map<String, long[]> m = new TreeMap<>();
        for (ConversationTruth c : conversations) {
            String a = c.client();
            String b = c.server();
            long[] t = m.computeIfAbsent(a.compareTo(b) <= 0 ? a + " " + b : b + " " + a, k -> new long[2]);
            t[0] += c.totalPackets();
            t[1] += c.totalBytes();
        }
        return m;
    }

    /** Writes the truth as JSON (see {@code deploy/lab/README.md}). */
    public void writeJson(Path file) throws IOException {
        Files.writeString(file, LabTruthJson.write(this));
    }
}
