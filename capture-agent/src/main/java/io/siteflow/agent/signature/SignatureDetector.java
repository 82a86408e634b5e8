package io.siteflow.agent.signature;

import io.siteflow.agent.decode.Packet;
import io.siteflow.model.L7Protocol;

/**
 * Recognises the application protocol of a flow from the first payload bytes of each direction:
 * Oracle TNS, WebLogic T3 (and T3 carrying WebLogic JMS), IIOP/GIOP, Coherence TCMP (UDP) and TMB (TCP),
 * HTTP, TLS (with the SNI host name), PostgreSQL and MySQL. Only the protocol and the SNI name leave
 * the agent; payload bytes are read during the call and never kept.
 *
 * <p>The flow table keeps one {@code int} per flow, starting at {@link SignatureState#INITIAL}, and
 * passes each TCP/UDP payload to {@link #inspect} until {@link SignatureState#isDone} is true:
 * <pre>{@code
 * if (!SignatureState.isDone(flow.sig)) {
 *     flow.sig = detector.inspect(flow.sig, fromInitiator, packet, data);
 *     if (SignatureState.hasSni(flow.sig)) {
 *         flow.sni = detector.sni(data, packet.payloadOffset, packet.payloadCaptured);
 *     }
 * }
 * L7Protocol l7 = SignatureState.protocol(flow.sig);   // UNKNOWN until detected
 * }</pre>
 *
 * <p>Budget: at most {@code maxPacketsPerDirection} payload packets per direction are looked at
 * (packets without payload are not counted). The flow is done as soon as a protocol is found, except
 * T3, which keeps being scanned for {@code weblogic.jms.} until the budget of both directions is spent
 * (then it becomes {@link L7Protocol#T3_JMS}). A flow whose directions both spent their budget is done
 * with {@link L7Protocol#UNKNOWN}; a one-way flow is never done, but every further call returns at once.
 *
 * <p>Bytes needed (payload bytes after the TCP/UDP header; with the default snap length of 256, about
 * 170-200 remain after Ethernet/IP/TCP headers): TCMP, TMB, T3 handshake 4-6; HTTP 5 (a method and one
 * target byte) to the end of the request line; GIOP, PostgreSQL, TNS data packets 8; TLS 11 (a hello) or 5 (a
 * record of a connection already running, whose length fits the segment); TNS CONNECT 12; the SNI name and {@code weblogic.jms.} only where they lie within the captured bytes.
 * See {@code capture-agent/docs/signatures.md}.
 *
 * <p>Thread-safety: immutable; one instance may serve every capture thread. No allocation per call
 * except the string returned by {@link #sni}. Bad input (random bytes, lengths beyond the buffer) gives
 * {@link L7Protocol#UNKNOWN}, never an exception; {@code data} must not be null when a payload is passed.
 */
public final class SignatureDetector {

    /** Payload packets looked at per direction by default. */
    public static final int DEFAULT_MAX_PACKETS = 4;

    private final int maxPackets;

    /** A detector that looks at {@value #DEFAULT_MAX_PACKETS} payload packets per direction. */
    public SignatureDetector() {
        this(DEFAULT_MAX_PACKETS);
    }

    /**
     * @param maxPacketsPerDirection payload packets looked at per direction, 1-7
     * @throws IllegalArgumentException when outside 1-7
     */
    public SignatureDetector(int maxPacketsPerDirection) {
        if (maxPacketsPerDirection < 1 || maxPacketsPerDirection > SignatureState.COUNT_MASK) {
            throw new IllegalArgumentException("maxPacketsPerDirection must be 1-7: " + maxPacketsPerDirection);
        }
        this.maxPackets = maxPacketsPerDirection;
    }

    /**
     * Looks at the payload of a decoded packet; packets without ports (non-first fragments, ICMP) leave
     * the state unchanged.
     *
     * @see #inspect(int, boolean, int, byte[], int, int, int)
     */
    public int inspect(int state, boolean fromInitiator, Packet p, byte[] data) {
        if (!p.hasPorts) {
            return state & ~SignatureState.SNI;
        }
        return inspect(state, fromInitiator, p.protocol, data, p.payloadOffset, p.payloadCaptured,
                p.payloadLength);
    }

    /**
     * Looks at one payload and returns the flow's new state.
     *
     * @param state         the flow's state ({@link SignatureState#INITIAL} for a new flow)
     * @param fromInitiator true when the packet goes from the flow's initiator to the responder
     * @param ipProtocol    6 (TCP) or 17 (UDP); any other value makes the flow done at once
     * @param data          packet buffer
     * @param off           offset of the transport payload in {@code data}
     * @param capturedLen   payload bytes captured from {@code off} (may be less than {@code payloadLen})
     * @param payloadLen    payload length on the wire (from the IP length); 0 leaves the state unchanged
     * @return the new state; read it with {@link SignatureState}
     */
    public int inspect(int state, boolean fromInitiator, int ipProtocol, byte[] data, int off,
                       int capturedLen, int payloadLen) {
        state &= ~SignatureState.SNI;
        if (SignatureState.isDone(state) || payloadLen <= 0) {
            return state;
        }
        if (ipProtocol != Signatures.TCP && ipProtocol != Signatures.UDP) {
            return state | SignatureState.DONE;
        }
        int seen = SignatureState.packetsSeen(state, fromInitiator);
        if (seen >= maxPackets) {
            return state;
        }
        state = SignatureState.withCount(state, fromInitiator, seen + 1);
        int cap = captured(data, off, capturedLen, payloadLen);
        L7Protocol found = SignatureState.protocol(state);
        if (found == L7Protocol.UNKNOWN && cap > 0) {
            found = Signatures.detect(ipProtocol, data, off, cap, payloadLen);
            if (found != L7Protocol.UNKNOWN) {
                state = SignatureState.withProtocol(state, found);
            }
            if (found == L7Protocol.TLS && TlsServerName.locate(data, off, cap) >= 0) {
                state |= SignatureState.SNI;
            }
        }
        if (found == L7Protocol.T3 && cap > 0 && T3Signature.hasJmsMarker(data, off, cap)) {
            found = L7Protocol.T3_JMS;
            state = SignatureState.withProtocol(state, found);
        }
        if (found != L7Protocol.UNKNOWN && found != L7Protocol.T3 || budgetSpent(state)) {
            state |= SignatureState.DONE;
        }
        return state;
    }

    /**
     * The TLS server name (SNI) in a payload for which {@link #inspect} returned a state with
     * {@link SignatureState#hasSni}, in lower case; the empty string when the payload holds none.
     */
    public String sni(byte[] data, int off, int capturedLen) {
        int cap = captured(data, off, capturedLen, capturedLen);
        long location = cap > 0 ? TlsServerName.locate(data, off, cap) : -1;
        return location < 0 ? "" : TlsServerName.read(data, location);
    }

    /** Payload packets looked at per direction. */
    public int maxPacketsPerDirection() {
        return maxPackets;
    }

    private boolean budgetSpent(int state) {
        return SignatureState.packetsSeen(state, true) >= maxPackets
                && SignatureState.packetsSeen(state, false) >= maxPackets;
    }

    /** Captured bytes that really lie in {@code data}: never negative, never past the payload. */
    private static int captured(byte[] data, int off, int capturedLen, int payloadLen) {
        if (off < 0 || off >= data.length) {
            return 0;
        }
        return Math.max(0, Math.min(Math.min(capturedLen, payloadLen), data.length - off));
    }
}
