package io.siteflow.agent.decode;

/**
 * Mutable decoding state for one packet, reused across packets. Positions are absolute indices into
 * {@link #data}. {@link #end} is the captured end (never read at or past it); link layers may lower it
 * (802.3 length, trailing FCS) and set {@link #trailer} to the FCS bytes counted in the wire length.
 */
final class Cursor {
    /** Link layer handed over an IP header whose version nibble decides (4 or 6). */
    static final int IP = 1;
    /** Link layer handed over an IPv6 header (a version other than 6 is invalid). */
    static final int IPV6 = 2;
    static final int NOT_IP = 3;
    static final int UNSUPPORTED = 4;
    static final int MALFORMED = 5;

    byte[] data;
    int start;
    int end;
    int wireEnd;
    int pos;
    int trailer;
    /** Nesting of link layers that wrap another link type (PKTAP, PPI). */
    int nesting;
    MalformedReason reason;
    int reasonAt;

    void reset(byte[] data, int start, int capLen, int wireLen) {
        this.data = data;
        this.start = start;
        this.end = start + capLen;
        this.wireEnd = start + Math.max(wireLen, 0);
        this.pos = start;
        this.trailer = 0;
        this.nesting = 0;
        this.reason = MalformedReason.NONE;
        this.reasonAt = -1;
    }

    /** True when {@code n} bytes from {@code p} were captured. */
    boolean has(int p, int n) {
        return p >= start && n >= 0 && p <= end - n;
    }

    /** Records why decoding stopped and returns {@link #MALFORMED}. */
    int fail(MalformedReason why, int at) {
        reason = why;
        reasonAt = at - start;
        return MALFORMED;
    }

    /** The network layer starts at {@code p}; returns {@code kind}. */
    int network(int kind, int p) {
        pos = p;
        return kind;
    }

    /** Reported bytes from {@code p} to the end of the frame, without a trailing FCS (TSO/GSO lengths). */
    int reportedFrom(int p) {
        return Math.max(wireEnd - trailer - p, 0);
    }
}
