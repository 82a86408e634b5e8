package io.siteflow.agent.metrics;

import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.MalformedReason;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the decoder made of the packets: counts per {@link DecodeStatus} and per {@link MalformedReason},
 * packets kept and dropped by the {@code -F} filter, and the unsupported link types met (each reported
 * once). Written by the capture thread only; read by metrics and the final summary (plain fields: a
 * reader on another thread may see a slightly stale value).
 */
public final class DecodeCounters {
    private final long[] byStatus = new long[DecodeStatus.values().length];
    private final long[] byReason = new long[MalformedReason.values().length];
    private final BitSet unsupportedSeen = new BitSet(65536);
    private final List<Integer> unsupported = new ArrayList<>();
    private long filteredOut;
    private long kept;
    private long wireBytes;

    /** A new set of counters holding the sum of {@code parts} (the workers' counters of one capture). */
    public static DecodeCounters sum(List<DecodeCounters> parts) {
        DecodeCounters sum = new DecodeCounters();
        for (DecodeCounters p : parts) {
            for (int i = 0; i < sum.byStatus.length; i++) {
                sum.byStatus[i] += p.byStatus[i];
            }
            for (int i = 0; i < sum.byReason.length; i++) {
                sum.byReason[i] += p.byReason[i];
            }
            for (int lt : p.unsupportedLinkTypes()) {
                if (!sum.unsupportedSeen.get(lt & 0xFFFF)) {
                    sum.unsupportedSeen.set(lt & 0xFFFF);
                    sum.unsupported.add(lt);
                }
            }
            sum.filteredOut += p.filteredOut;
            sum.kept += p.kept;
            sum.wireBytes += p.wireBytes;
        }
        return sum;
    }

    /**
     * Counters of packets decoded elsewhere (the in-kernel program of {@code --backend ebpf}, which counts what it
     * parsed): so many IP, not IP and malformed packets, kept and outside the {@code -F} filter; no wire bytes.
     */
    public static DecodeCounters of(long ip, long notIp, long malformed, long kept, long filteredOut) {
        DecodeCounters c = new DecodeCounters();
        c.byStatus[DecodeStatus.IP.ordinal()] = ip;
        c.byStatus[DecodeStatus.NOT_IP.ordinal()] = notIp;
        c.byStatus[DecodeStatus.MALFORMED.ordinal()] = malformed;
        c.kept = kept;
        c.filteredOut = filteredOut;
        return c;
    }

    /** Counts one packet's decode result; returns true the first time an unsupported link type is seen. */
    public boolean count(DecodeStatus status, MalformedReason reason, int linkType, int wireLen) {
        byStatus[status.ordinal()]++;
        wireBytes += wireLen;
        if (reason != MalformedReason.NONE) {
            byReason[reason.ordinal()]++;
        }
        if (status == DecodeStatus.UNSUPPORTED_LINK && !unsupportedSeen.get(linkType & 0xFFFF)) {
            unsupportedSeen.set(linkType & 0xFFFF);
            unsupported.add(linkType);
            return true;
        }
        return false;
    }

    public void filteredOut() {
        filteredOut++;
    }

    public void kept() {
        kept++;
    }

    public long packets() {
        long n = 0;
        for (long c : byStatus) {
            n += c;
        }
        return n;
    }

    public long wireBytes() {
        return wireBytes;
    }

    public long status(DecodeStatus s) {
        return byStatus[s.ordinal()];
    }

    public long reason(MalformedReason r) {
        return byReason[r.ordinal()];
    }

    public long filteredOutCount() {
        return filteredOut;
    }

    public long keptCount() {
        return kept;
    }

    /** Link types met that the decoder does not handle, in the order first seen. */
    public List<Integer> unsupportedLinkTypes() {
        return List.copyOf(unsupported);
    }

    /** Packets not decoded down to IP (malformed) plus IP packets with a bad transport header, by reason. */
    public Map<String, Long> malformedByReason() {
        Map<String, Long> m = new TreeMap<>();
        for (MalformedReason r : MalformedReason.values()) {
            if (r != MalformedReason.NONE && byReason[r.ordinal()] > 0) {
                m.put(r.name().toLowerCase(java.util.Locale.ROOT), byReason[r.ordinal()]);
            }
        }
        return m;
    }
}
