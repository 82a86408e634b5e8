package io.siteflow.agent.flow;

import io.siteflow.agent.decode.Packet;

/**
 * Per-flow protocol detection hook of the flow table. The table keeps one int of state per flow and
 * calls {@link #inspect} for each packet with payload until {@link #done} says the decision is made.
 */
public interface L7Tracker {

    /** The state of a new flow. */
    int initialState();

    /** True when no more packets need to be looked at. */
    boolean done(int state);

    /**
     * Looks at one packet's payload.
     *
     * @param state         the flow's state so far
     * @param fromInitiator true when the packet goes from the initiator to the responder
     * @param p             decoded packet (payload at {@code p.payloadOffset}, {@code p.payloadCaptured} bytes)
     * @param data          packet buffer
     * @return the new state
     */
    int inspect(int state, boolean fromInitiator, Packet p, byte[] data);

    /** The wire name of the detected protocol, or null when unknown. */
    String protocol(int state);

    /**
     * True when the flow's protocol is a database whose calls {@link DbCalls} times: {@code oracle-tns},
     * {@code postgresql} or {@code mysql}. Asked only while the flow's detection is not {@link #done} and once
     * after.
     */
    default boolean timesCalls(int state) {
        String p = protocol(state);
        return "oracle-tns".equals(p) || "postgresql".equals(p) || "mysql".equals(p);
    }

    /** The TLS server name found by the last {@link #inspect} call that returned a TLS state, or null. */
    default String lastSni() {
        return null;
    }

    /** A tracker that detects nothing. */
    L7Tracker NONE = new L7Tracker() {
        @Override
        public int initialState() {
            return 0;
        }

        @Override
        public boolean done(int state) {
            return true;
        }

        @Override
        public int inspect(int state, boolean fromInitiator, Packet p, byte[] data) {
            return state;
        }

        @Override
        public String protocol(int state) {
            return null;
        }
    };
}
