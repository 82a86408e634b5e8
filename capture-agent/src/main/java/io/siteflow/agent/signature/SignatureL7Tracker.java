package io.siteflow.agent.signature;

import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.flow.L7Tracker;
import io.siteflow.model.L7Protocol;

/**
 * The flow table's {@link L7Tracker} backed by a {@link SignatureDetector}: the per-flow int is a
 * {@link SignatureState}, {@link #protocol} gives the wire name ({@code oracle-tns}, ...) or null while
 * unknown, and {@link #lastSni} the TLS server name of the last {@link #inspect} call, or null.
 *
 * <p>Not thread-safe ({@link #lastSni} is per call): one instance per flow table. Allocates only the
 * SNI string, once per TLS flow that sends one.
 */
public final class SignatureL7Tracker implements L7Tracker {

    private final SignatureDetector detector;
    private final boolean keepSni;
    private String lastSni;

    /** A tracker over a detector with the default budget of 4 payload packets per direction. */
    public SignatureL7Tracker() {
        this(new SignatureDetector());
    }

    /** As {@link #SignatureL7Tracker()}; {@code keepSni} false: {@link #lastSni} is always null ({@code --no-sni}). */
    public SignatureL7Tracker(boolean keepSni) {
        this(new SignatureDetector(), keepSni);
    }

    public SignatureL7Tracker(SignatureDetector detector) {
        this(detector, true);
    }

    public SignatureL7Tracker(SignatureDetector detector, boolean keepSni) {
        this.detector = detector;
        this.keepSni = keepSni;
    }

    @Override
    public int initialState() {
        return SignatureState.INITIAL;
    }

    @Override
    public boolean done(int state) {
        return SignatureState.isDone(state);
    }

    @Override
    public int inspect(int state, boolean fromInitiator, Packet p, byte[] data) {
        int next = detector.inspect(state, fromInitiator, p, data);
        lastSni = keepSni && SignatureState.hasSni(next) ? detector.sni(data, p.payloadOffset, p.payloadCaptured) : null;
        return next;
    }

    @Override
    public String protocol(int state) {
        L7Protocol p = SignatureState.protocol(state);
        return p == L7Protocol.UNKNOWN ? null : p.wireName();
    }

    @Override
    public String lastSni() {
        return lastSni;
    }
}
