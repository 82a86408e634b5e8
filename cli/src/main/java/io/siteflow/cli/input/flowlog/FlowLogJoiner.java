package io.siteflow.cli.input.flowlog;

import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.ServicePorts;
import io.siteflow.model.FlowRecord;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Joins the two directions of a conversation, one flow-log row each, into one bidirectional {@link FlowRecord},
 * offline. Rows are joined per interface and 5-tuple; a conversation's record covers at most the agent's active
 * timeout from its first row (then a new record starts, as the flow table's interim records do), so windows see
 * its bytes when they were sent. Memory is bounded by time, not by file size: a conversation whose first row is
 * {@link #EXPIRY_MS} (AWS's longest aggregation interval) older than the newest row read goes out then (rows of
 * one file are in capture-window order give or take a window; a later row of it starts a new record, so sums stay
 * exact). The initiator ({@code src}) is decided as {@code siteflow collect} decides it:
 * {@link ServicePorts#initiator} (SYN without ACK in one direction's logged TCP flags, else the port rule), else the
 * end that sent the first row. A conversation logged on two interfaces (both ends in the cloud) counts once: the
 * rows of the interface that logged it first are kept, the others counted in {@link #duplicateRows()}. Records carry
 * no L7, no RTT and no frame bytes (logs count IP bytes). Not thread-safe.
 */
public final class FlowLogJoiner {
    private static final int FIN = 0x01;
    private static final int RST = 0x04;
    /** How far behind the newest row a conversation's first row may be before it goes out: 10 minutes. */
    public static final long EXPIRY_MS = 600_000;

    private final String agent;
    private final String idPrefix;
    private final long activeMs;
    private final Consumer<FlowRecord> out;
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>();
    private final Map<Key, String> owners = new HashMap<>();
    private long newestStart = Long.MIN_VALUE;
    private long counter;
    private long duplicateRows;
    private long records;
    private long packets;

    /** @param idPrefix prefix of record ids ({@code <idPrefix>-<counter>}), e.g. the file name */
    public FlowLogJoiner(String agent, String idPrefix, Consumer<FlowRecord> out) {
        this.agent = agent;
        this.idPrefix = idPrefix;
        this.activeMs = FlowTableConfig.DEFAULTS.activeTimeout().toMillis();
        this.out = out;
    }

    /** Adds one row. */
    public void add(FlowLogRow row) {
        boolean ab = compare(row.src(), row.srcPort(), row.dst(), row.dstPort()) <= 0;
        Key key = ab ? new Key(row.proto(), row.src(), row.srcPort(), row.dst(), row.dstPort())
                : new Key(row.proto(), row.dst(), row.dstPort(), row.src(), row.srcPort());
        String owner = owners.putIfAbsent(key, row.iface());
        if (owner != null && !owner.equals(row.iface())) {
            duplicateRows++;
            return;
        }
        Entry e = entries.get(key);
        if (e != null && row.startMs() - e.firstStart >= activeMs) {
            entries.remove(key);
            emit(e, false);
            e = null;
        }
        if (e == null) {
            e = new Entry(key, row.iface(), row.startMs(), ab);
            entries.put(key, e);
        }
        e.add(ab, row);
        if (row.startMs() > newestStart) {
            newestStart = row.startMs();
            expire();
        }
    }

    /** Emits the conversations whose first row is {@link #EXPIRY_MS} older than the newest row. */
    private void expire() {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            Entry e = it.next();
            if (newestStart - e.firstStart < EXPIRY_MS) {
                break; // insertion order is first-row order
            }
            emit(e, false);
            it.remove();
        }
    }

    /** Emits every conversation held, as ended (the end of the file). */
    public void flush() {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
            emit(it.next(), true);
            it.remove();
        }
    }

    /** Rows left out because another interface logged the same conversation first. */
    public long duplicateRows() {
        return duplicateRows;
    }

    /** Records emitted. */
    public long records() {
        return records;
    }

    /** Packets in the records emitted. */
    public long packets() {
        return packets;
    }

    private void emit(Entry e, boolean ended) {
        Key k = e.key;
        int who = ServicePorts.initiator(k.proto == 6, e.abFlags, e.baFlags, k.aPort, k.bPort);
        boolean aInitiates = who != 0 ? who > 0 : e.firstAb;
        FlowRecord.Builder b = FlowRecord.builder().id(idPrefix + "-" + (++counter)).agent(agent).iface(e.iface)
                .time(e.start, e.end).isFinal(ended || ((e.abFlags | e.baFlags) & (FIN | RST)) != 0);
        if (aInitiates) {
            b.endpoints(k.proto, k.a, k.aPort, k.b, k.bPort).forward(e.abBytes, e.abPackets, 0, e.abFlags)
                    .reverse(e.baBytes, e.baPackets, 0, e.baFlags);
        } else {
            b.endpoints(k.proto, k.b, k.bPort, k.a, k.aPort).forward(e.baBytes, e.baPackets, 0, e.baFlags)
                    .reverse(e.abBytes, e.abPackets, 0, e.abFlags);
        }
        records++;
        packets += e.abPackets + e.baPackets;
        out.accept(b.build());
    }

    private static int compare(String a, int aPort, String b, int bPort) {
        int c = a.compareTo(b);
        return c != 0 ? c : Integer.compare(aPort, bPort);
    }

    /** The 5-tuple with the lower end ({@code a}) first. */
    private record Key(int proto, String a, int aPort, String b, int bPort) {
    }

    /** One conversation being joined. */
    private static final class Entry {
        final Key key;
        final String iface;
        final long firstStart;
        final boolean firstAb;
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        long abBytes;
        long abPackets;
        int abFlags;
        long baBytes;
        long baPackets;
        int baFlags;

        Entry(Key key, String iface, long firstStart, boolean firstAb) {
            this.key = key;
            this.iface = iface;
            this.firstStart = firstStart;
            this.firstAb = firstAb;
        }

        void add(boolean ab, FlowLogRow r) {
            if (ab) {
                abBytes += r.bytes();
                abPackets += r.packets();
                abFlags |= r.tcpFlags();
            } else {
                baBytes += r.bytes();
                baPackets += r.packets();
                baFlags |= r.tcpFlags();
            }
            start = Math.min(start, Math.min(r.startMs(), r.endMs()));
            end = Math.max(end, Math.max(r.startMs(), r.endMs()));
        }
    }
}
