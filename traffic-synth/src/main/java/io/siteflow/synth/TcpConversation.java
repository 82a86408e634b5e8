package io.siteflow.synth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One TCP connection as a capture point between client and server sees it. Every time here is the time a
 * packet passes the capture point (epoch nanoseconds); a packet that the capture point forwards reaches the
 * client after {@code clientDelay} and the server after {@code serverDelay}, and each end answers at once.
 * So the handshake SYN → SYN/ACK → ACK spans exactly {@code 2 × (clientDelay + serverDelay)} at the capture
 * point, the handshake RTT of DESIGN.md.
 *
 * <p>Model: the SYN and SYN/ACK carry MSS and SACK-permitted options; data is cut into MSS-sized segments
 * sent {@code segmentGap} apart, PSH on the last; the receiver ACKs every second segment and the last one,
 * except that a response piggybacks the ACK of its request; a close is FIN/ACK, FIN/ACK, ACK. Calls must
 * come in the connection's order (connect or established, exchanges, close); a time earlier than the end of
 * the previous step is moved to that end. Sequence numbers wrap modulo 2^32.
 *
 * <p>Not thread-safe. {@link IllegalStateException} when a step does not fit the connection's state.
 */
public final class TcpConversation implements Conversation {
    public static final int DEFAULT_MSS = 1460;
    /** About one full-size frame at 1 Gbit/s. */
    public static final long DEFAULT_SEGMENT_GAP_NANOS = 12_000;
    private static final int WINDOW = 64240;
    private static final long MASK32 = 0xFFFF_FFFFL;
    private static final byte[] EMPTY = new byte[0];

    private enum State { NEW, OPEN, CLOSED }

    /** One end: its address, one-way delay to the capture point, next sequence number and IP id. */
    private static final class Side {
        final Endpoint ep;
        final long delay;
        final DirectionTotals sent = new DirectionTotals();
        long seq;
        int ipId;

        Side(Endpoint ep, long delay, long isn, int ipId) {
            this.ep = ep;
            this.delay = delay;
            this.seq = isn & MASK32;
            this.ipId = ipId;
        }
    }

    private final Side c;
    private final Side s;
    private final int mss;
    private final long gap;
    private final byte[] synOptions;
    private final List<TimedFrame> frames = new ArrayList<>();
    private State state = State.NEW;
    private long ready = Long.MIN_VALUE;
    /** Exchanges with a request and a response ({@link #calls}). */
    private long calls;
    private long rttNanos = -1;

    TcpConversation(TcpConversationBuilder b) {
        this.c = new Side(b.client, b.clientDelay, b.clientIsn, b.clientIpId);
        this.s = new Side(b.server, b.serverDelay, b.serverIsn, b.serverIpId);
        this.mss = b.mss;
        this.gap = b.gap;
        this.synOptions = new byte[] {2, 4, (byte) (mss >>> 8), (byte) mss, 1, 1, 4, 2};
    }

    /** Starts a builder for a connection from {@code client} to {@code server}. */
    public static TcpConversationBuilder between(Endpoint client, Endpoint server) {
        return new TcpConversationBuilder(client, server);
    }

    /** Three-way handshake with the SYN at {@code synAt}; the connection is open after the ACK. */
    public TcpConversation connect(long synAt) {
        require(State.NEW, "connect");
        long t0 = synAt;
        emit(c, s, t0, c.seq, 0, Frames.SYN, synOptions, null, 0, 0);
        c.seq = (c.seq + 1) & MASK32;
        long t1 = t0 + 2 * s.delay;
        emit(s, c, t1, s.seq, c.seq, Frames.SYN | Frames.ACK, synOptions, null, 0, 0);
        s.seq = (s.seq + 1) & MASK32;
        long t2 = t1 + 2 * c.delay;
        emit(c, s, t2, c.seq, s.seq, Frames.ACK, null, null, 0, 0);
        rttNanos = t2 - t0;
        ready = t2;
        state = State.OPEN;
        return this;
    }

    /** Marks the connection as opened before the capture began (no handshake is seen); open from {@code at}. */
    public TcpConversation established(long at) {
        require(State.NEW, "established");
        ready = at;
        state = State.OPEN;
        return this;
    }

    /**
     * One request/response exchange starting at {@code at} (or when the previous step ended).
     *
     * @param fromClient who sends the request
     * @param request    request bytes, may be empty only when the response is not
     * @param response   response bytes, may be empty (then only ACKs come back)
     * @param thinkNanos time the responder takes between the last request byte and its response
     */
    public TcpConversation exchange(long at, boolean fromClient, byte[] request, byte[] response, long thinkNanos) {
        require(State.OPEN, "exchange");
        Side a = fromClient ? c : s;
        Side b = fromClient ? s : c;
        long t = Math.max(at, ready);
        if (request.length > 0 && response.length > 0) {
            calls++;
        }
        if (request.length > 0) {
            t = burst(a, b, t, request, response.length == 0) + 2 * b.delay;
            t += response.length > 0 ? thinkNanos : 0;
        }
        if (response.length > 0) {
            t = burst(b, a, t, response, true) + 2 * a.delay;
        }
        ready = t;
        return this;
    }

    @Override
    public long calls() {
        return calls;
    }

    /** Closes with FIN/ACK from the closer, FIN/ACK back and the last ACK, at {@code at} or later. */
    public TcpConversation close(long at, boolean byClient) {
        require(State.OPEN, "close");
        Side a = byClient ? c : s;
        Side b = byClient ? s : c;
        long t0 = Math.max(at, ready);
        emit(a, b, t0, a.seq, b.seq, Frames.FIN | Frames.ACK, null, null, 0, 0);
        a.seq = (a.seq + 1) & MASK32;
        long t1 = t0 + 2 * b.delay;
        emit(b, a, t1, b.seq, a.seq, Frames.FIN | Frames.ACK, null, null, 0, 0);
        b.seq = (b.seq + 1) & MASK32;
        long t2 = t1 + 2 * a.delay;
        emit(a, b, t2, a.seq, b.seq, Frames.ACK, null, null, 0, 0);
        ready = t2;
        state = State.CLOSED;
        return this;
    }

    /**
     * Sends {@code data} from {@code a} in MSS-sized segments from {@code t0}; {@code b} ACKs every second
     * segment, and the last one when {@code ackLast}. Returns the time of the last segment.
     */
    private long burst(Side a, Side b, long t0, byte[] data, boolean ackLast) {
        int n = (data.length + mss - 1) / mss;
        long t = t0;
        for (int i = 0; i < n; i++) {
            t = t0 + i * gap;
            int off = i * mss;
            int len = Math.min(mss, data.length - off);
            boolean last = i == n - 1;
            emit(a, b, t, a.seq, b.seq, Frames.ACK | (last ? Frames.PSH : 0), null, data, off, len);
            a.seq = (a.seq + len) & MASK32;
            if ((i % 2 == 1 && !last) || (last && ackLast)) {
                emit(b, a, t + 2 * b.delay, b.seq, a.seq, Frames.ACK, null, null, 0, 0);
            }
        }
        return t;
    }

    private void emit(Side from, Side to, long t, long seq, long ack, int flags, byte[] options,
            byte[] data, int off, int len) {
        Frames.TcpHeader h = new Frames.TcpHeader(seq, ack, flags, WINDOW, options);
        byte[] f = Frames.tcp(from.ep, to.ep, from.ipId, h, data == null ? EMPTY : data, off, len);
        from.ipId = (from.ipId + 1) & 0xFFFF;
        from.sent.add(f);
        frames.add(new TimedFrame(t, f));
    }

    private void require(State expected, String step) {
        if (state != expected) {
            throw new IllegalStateException(step + ": connection " + c.ep + " -> " + s.ep + " is " + state);
        }
    }

    /** The frames so far in time order (frames with equal times in the order they were made). */
    @Override
    public List<TimedFrame> frames() {
        List<TimedFrame> sorted = new ArrayList<>(frames);
        sorted.sort(Comparator.comparingLong(TimedFrame::tsNanos));
        return sorted;
    }

    /** When the last step ended: the earliest time the next step can start. */
    public long ready() {
        return ready;
    }

    /** Handshake RTT at the capture point in microseconds (SYN → ACK of the SYN/ACK); -1 without a handshake. */
    @Override
    public long handshakeRttMicros() {
        return rttNanos < 0 ? -1 : rttNanos / 1000;
    }

    @Override
    public int protocol() {
        return 6;
    }

    @Override
    public Endpoint client() {
        return c.ep;
    }

    @Override
    public Endpoint server() {
        return s.ep;
    }

    /** What the client sent. */
    @Override
    public DirectionTotals fromClient() {
        return c.sent;
    }

    /** What the server sent. */
    @Override
    public DirectionTotals fromServer() {
        return s.sent;
    }

    /** Next sequence number of the client (tests check the arithmetic). */
    public long clientSeq() {
        return c.seq;
    }

    /** Next sequence number of the server. */
    public long serverSeq() {
        return s.seq;
    }
}
