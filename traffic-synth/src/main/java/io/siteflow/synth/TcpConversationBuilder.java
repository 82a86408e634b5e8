package io.siteflow.synth;

/** Settings of a {@link TcpConversation}; defaults: no delays, MSS 1460, 12 µs segment gap, ISNs 0. */
public final class TcpConversationBuilder {
    final Endpoint client;
    final Endpoint server;
    long clientDelay;
    long serverDelay;
    int mss = TcpConversation.DEFAULT_MSS;
    long gap = TcpConversation.DEFAULT_SEGMENT_GAP_NANOS;
    long clientIsn;
    long serverIsn;
    int clientIpId;
    int serverIpId;

    TcpConversationBuilder(Endpoint client, Endpoint server) {
        if (client.isV4() != server.isV4()) {
            throw new IllegalArgumentException(client + " and " + server + " are of different address families");
        }
        this.client = client;
        this.server = server;
    }

    /** One-way delays client ↔ capture point and capture point ↔ server, nanoseconds, not negative. */
    public TcpConversationBuilder delays(long clientNanos, long serverNanos) {
        if (clientNanos < 0 || serverNanos < 0) {
            throw new IllegalArgumentException("delays must not be negative: " + clientNanos + ", " + serverNanos);
        }
        this.clientDelay = clientNanos;
        this.serverDelay = serverNanos;
        return this;
    }

    /** Maximum segment size, 1-65495. */
    public TcpConversationBuilder mss(int mss) {
        if (mss < 1 || mss > 65495) {
            throw new IllegalArgumentException("mss " + mss + " is not in 1-65495");
        }
        this.mss = mss;
        return this;
    }

    /** Time between back-to-back segments of one burst, nanoseconds, not negative. */
    public TcpConversationBuilder segmentGapNanos(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("segment gap must not be negative: " + nanos);
        }
        this.gap = nanos;
        return this;
    }

    /** Initial sequence numbers (taken modulo 2^32). */
    public TcpConversationBuilder isn(long clientIsn, long serverIsn) {
        this.clientIsn = clientIsn;
        this.serverIsn = serverIsn;
        return this;
    }

    /** First IP identification of each end (modulo 2^16). */
    public TcpConversationBuilder ipIds(int clientIpId, int serverIpId) {
        this.clientIpId = clientIpId & 0xFFFF;
        this.serverIpId = serverIpId & 0xFFFF;
        return this;
    }

    public TcpConversation build() {
        return new TcpConversation(this);
    }
}
