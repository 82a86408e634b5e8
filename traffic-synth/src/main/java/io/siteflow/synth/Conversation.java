package io.siteflow.synth;

import java.util.List;

/** A synthetic conversation between two endpoints: its frames and what each end sent. */
public interface Conversation {
    /** The frames in time order. */
    List<TimedFrame> frames();

    /** The initiating end. */
    Endpoint client();

    Endpoint server();

    DirectionTotals fromClient();

    DirectionTotals fromServer();

    /** IANA protocol number (6 TCP, 17 UDP). */
    int protocol();

    /**
     * Request/response exchanges with payload both ways, the request first (what the agent counts as DB calls on
     * a database flow); 0 for a conversation that has none.
     */
    default long calls() {
        return 0;
    }

    /** Handshake RTT at the capture point in microseconds; -1 when there is none (UDP, or opened before the capture). */
    long handshakeRttMicros();
}
