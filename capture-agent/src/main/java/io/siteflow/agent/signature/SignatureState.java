package io.siteflow.agent.signature;

import io.siteflow.model.L7Protocol;

/**
 * The per-flow detection state of {@link SignatureDetector}, packed into one {@code int} so that the
 * flow table stores it in a primitive array. {@link #INITIAL} ({@code 0}) is the state of a new flow.
 *
 * <pre>
 * bits  0-3   detected protocol: 0 none yet, else L7Protocol.ordinal() + 1
 * bits  4-6   payload packets looked at from the initiator (0-7)
 * bits  8-10  payload packets looked at from the responder (0-7)
 * bit  12     done: the detector ignores further packets of this flow
 * bit  13     SNI: the payload passed to the call that returned this value holds a TLS server_name
 * </pre>
 * All methods are static and pure; any int is accepted (unknown bits are ignored).
 */
public final class SignatureState {

    /** The state of a flow no payload has been looked at yet. */
    public static final int INITIAL = 0;

    static final int PROTO_MASK = 0xf;
    static final int INIT_SHIFT = 4;
    static final int RESP_SHIFT = 8;
    static final int COUNT_MASK = 0x7;
    static final int DONE = 1 << 12;
    static final int SNI = 1 << 13;

    private static final L7Protocol[] PROTOCOLS = L7Protocol.values();

    private SignatureState() {
    }

    /** The protocol detected so far; {@link L7Protocol#UNKNOWN} when none, never null. */
    public static L7Protocol protocol(int state) {
        int code = state & PROTO_MASK;
        return code == 0 || code > PROTOCOLS.length ? L7Protocol.UNKNOWN : PROTOCOLS[code - 1];
    }

    /** True when the detector has decided (protocol found, or every direction's budget spent). */
    public static boolean isDone(int state) {
        return (state & DONE) != 0;
    }

    /** Payload packets looked at in one direction (0-7). */
    public static int packetsSeen(int state, boolean fromInitiator) {
        return state >>> (fromInitiator ? INIT_SHIFT : RESP_SHIFT) & COUNT_MASK;
    }

    /**
     * True only in the value returned by the {@link SignatureDetector#inspect} call whose payload holds a
     * complete TLS {@code server_name}; read it then with {@link SignatureDetector#sni}. Later calls
     * clear the bit.
     */
    public static boolean hasSni(int state) {
        return (state & SNI) != 0;
    }

    static int withProtocol(int state, L7Protocol p) {
        return (state & ~PROTO_MASK) | (p.ordinal() + 1);
    }

    static int withCount(int state, boolean fromInitiator, int count) {
        int shift = fromInitiator ? INIT_SHIFT : RESP_SHIFT;
        return (state & ~(COUNT_MASK << shift)) | (count & COUNT_MASK) << shift;
    }
}
