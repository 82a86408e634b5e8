package io.siteflow.agent.export;

/**
 * One exported flow record as decoded, reused for every record of every datagram (no allocation per record or
 * field). Addresses are two longs each ({@link io.siteflow.model.IpAddresses}); counters are as exported, before
 * sampling is applied. A biflow (RFC 5103) also carries the reverse direction's counters. Not thread-safe.
 */
public final class ExportFlow {
    long srcHi;
    long srcLo;
    long dstHi;
    long dstLo;
    boolean hasSrc;
    boolean hasDst;
    int srcPort;
    int dstPort;
    int proto;
    long bytes;
    long packets;
    /** Link-layer bytes source to destination (sFlow's frame length); 0 when the export counts IP bytes only. */
    long frameBytes;
    int tcpFlags;
    long rbytes;
    long rpackets;
    int rtcpFlags;
    boolean biflow;
    /** Epoch ms; -1 when the record carries no time the decoder understands. */
    long startMs;
    long endMs;
    /** A sampling interval carried in the data record itself (0: none). */
    long samplingInterval;
    /** Per-record scratch for the relative times of NetFlow v9 and of IPFIX's sysUpTime fields. */
    long firstUptime;
    long lastUptime;
    /** Packet interval and space (IEs 305, 306) of an options record. */
    long packetInterval;
    long packetSpace;
    boolean deltaBytes;
    boolean deltaPackets;

    void reset() {
        srcHi = srcLo = dstHi = dstLo = 0;
        hasSrc = hasDst = false;
        srcPort = dstPort = proto = 0;
        bytes = packets = rbytes = rpackets = frameBytes = 0;
        tcpFlags = rtcpFlags = 0;
        biflow = false;
        startMs = endMs = -1;
        samplingInterval = 0;
        firstUptime = lastUptime = -1;
        packetInterval = packetSpace = 0;
        deltaBytes = deltaPackets = false;
    }

    public long srcHi() {
        return srcHi;
    }

    public long srcLo() {
        return srcLo;
    }

    public long dstHi() {
        return dstHi;
    }

    public long dstLo() {
        return dstLo;
    }

    /** True when the record carried a source address (IPv4 or IPv6); a record without both is not a flow. */
    public boolean hasSource() {
        return hasSrc;
    }

    /** True when the record carried a destination address. */
    public boolean hasDestination() {
        return hasDst;
    }

    public int srcPort() {
        return srcPort;
    }

    public int dstPort() {
        return dstPort;
    }

    /** IANA protocol number. */
    public int proto() {
        return proto;
    }

    /** IP bytes source to destination, as exported. */
    public long bytes() {
        return bytes;
    }

    public long packets() {
        return packets;
    }

    /** OR of the TCP flags source to destination. */
    public int tcpFlags() {
        return tcpFlags;
    }

    /** RFC 5103 reverse direction: bytes destination to source (0 unless {@link #biflow()}). */
    public long rbytes() {
        return rbytes;
    }

    public long rpackets() {
        return rpackets;
    }

    public int rtcpFlags() {
        return rtcpFlags;
    }

    /** True when the record carried reverse counters (RFC 5103, PEN 29305). */
    public boolean biflow() {
        return biflow;
    }

    /** Epoch ms of the first packet, -1 when not exported. */
    public long startMs() {
        return startMs;
    }

    /** Epoch ms of the last packet, -1 when not exported. */
    public long endMs() {
        return endMs;
    }
}
