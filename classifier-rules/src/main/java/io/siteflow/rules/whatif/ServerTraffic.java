package io.siteflow.rules.whatif;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Site;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the what-if needs of one server's counted records, whatever the site it would move to: per peer site (the
 * site of the other end, when known) the bytes of both directions, the DB calls of DB flows and the flows with their
 * bytes ({@link FlowTally}); and the span of the records (the first start, the last end). {@link WhatIf} folds the
 * records of {@code siteflow whatif} into one ({@link #exact()}); the stream processor keeps one per server and
 * day in a store ({@link #bounded()}: at most {@value #KEPT_FLOWS} flows per peer site) and merges the days asked.
 * Mergeable; not thread-safe.
 */
public final class ServerTraffic {
    /** The flows kept per peer site by {@link #bounded()}: the largest; beyond, the largest are approximate. */
    public static final int KEPT_FLOWS = 64;
    private final int capacity;
    private final Map<String, Peer> byPeerSite = new TreeMap<>();
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;

    /** The traffic towards one peer site. */
    static final class Peer {
        long bytes;
        long dbCalls;
        final FlowTally flows;

        Peer(int capacity) {
            flows = new FlowTally(capacity);
        }
    }

    /**
     * What one counted record of the server adds.
     *
     * @param flow     the record's five-tuple (without the protocol) and category, bytes 0
     * @param peerSite the other end's site name, empty when it is in no site
     * @param bytes    both directions
     * @param dbCalls  the record's DB calls when its category is DB, else 0
     * @param start    the record's first packet, epoch ms
     * @param end      its last packet, epoch ms
     */
    public record Entry(WhatIfReport.Flow flow, String peerSite, long bytes, long dbCalls, long start, long end) {
    }

    private ServerTraffic(int capacity) {
        this.capacity = capacity;
    }

    /** Every flow kept: {@code siteflow whatif}. */
    public static ServerTraffic exact() {
        return new ServerTraffic(Integer.MAX_VALUE);
    }

    /** At most {@value #KEPT_FLOWS} flows per peer site: the processor's stores. */
    public static ServerTraffic bounded() {
        return new ServerTraffic(KEPT_FLOWS);
    }

    /**
     * The entry of a record of the server at {@code serverAddress} (its source or destination), classified as
     * {@code c}: the one place that says what the what-if takes of a record.
     */
    public static Entry entryOf(FlowRecord r, Classification c, String serverAddress) {
        boolean fromServer = r.src().equals(serverAddress);
        Site peer = fromServer ? c.dstSite() : c.srcSite();
        return new Entry(new WhatIfReport.Flow(r.src(), r.srcPort(), r.dst(), r.dstPort(), c.category().name(), 0),
                peer.isKnown() ? peer.name() : "", r.totalBytes(), c.category() == Category.DB ? r.dbCalls() : 0,
                r.start(), r.end());
    }

    public void add(Entry e) {
        first = Math.min(first, e.start());
        last = Math.max(last, e.end());
        if (e.peerSite().isEmpty()) {
            return;
        }
        Peer p = byPeerSite.computeIfAbsent(e.peerSite(), s -> new Peer(capacity));
        p.bytes += e.bytes();
        p.dbCalls += e.dbCalls();
        p.flows.add(e.flow(), e.bytes());
    }

    /** Adds everything {@code other} holds (another day of the same server). */
    public void merge(ServerTraffic other) {
        first = Math.min(first, other.first);
        last = Math.max(last, other.last);
        other.byPeerSite.forEach((site, o) -> {
            Peer p = byPeerSite.computeIfAbsent(site, s -> new Peer(capacity));
            p.bytes += o.bytes;
            p.dbCalls += o.dbCalls;
            p.flows.merge(o.flows);
        });
    }

    /** The first record's start, epoch ms; {@code Long.MAX_VALUE} when none was added. */
    public long first() {
        return first;
    }

    /** The last record's end, epoch ms; {@code Long.MIN_VALUE} when none was added. */
    public long last() {
        return last;
    }

    /** Bytes towards each peer site, by site name. */
    public Map<String, Long> bytesByPeerSite() {
        Map<String, Long> out = new TreeMap<>();
        byPeerSite.forEach((s, p) -> out.put(s, p.bytes));
        return out;
    }

    /** How many flows towards each peer site are kept, by site name (at most the capacity each). */
    public Map<String, Integer> keptFlowsByPeerSite() {
        Map<String, Integer> out = new TreeMap<>();
        byPeerSite.forEach((s, p) -> out.put(s, p.flows.kept().size()));
        return out;
    }

    /** The traffic towards {@code site}, null when none. */
    Peer peer(String site) {
        return byPeerSite.get(site);
    }

    /** The peers by site name (the codec and the report). */
    Map<String, Peer> peers() {
        return Collections.unmodifiableMap(byPeerSite);
    }

    /** Restores the span the codec read. */
    void span(long first, long last) {
        this.first = first;
        this.last = last;
    }

    /** A new peer for the codec. */
    Peer newPeer(String site) {
        return byPeerSite.computeIfAbsent(site, s -> new Peer(capacity));
    }

    boolean isBounded() {
        return capacity != Integer.MAX_VALUE;
    }
}
