package io.siteflow.agent.flow;

import io.siteflow.agent.decode.Packet;
import java.util.ArrayDeque;

/**
 * DB call timing on flows the {@link L7Tracker} names a database ({@link L7Tracker#timesCalls}). A <em>call</em>
 * is one run of initiator (client) payload followed by a run of responder (server) payload; its time runs from
 * the last request segment to the first response segment, as seen at the capture point (on the application
 * server's host: network RTT + database service time).
 *
 * <ul>
 *   <li>A call counts in the record in which its first response segment falls, so a call cut by the active
 *       timeout (request in one record, response in the next) counts once, in the later record, with its whole
 *       time.</li>
 *   <li>Pipelined requests sent back to back, before any response, are one call, timed from the last of them;
 *       a request sent while responses still arrive starts the next call, timed to the next response segment
 *       (which may still belong to the earlier request: passive timing cannot tell them apart without decoding
 *       the protocol, so a flow that pipelines across responses shows calls shorter than the real ones).</li>
 *   <li>A segment whose sequence end is not beyond the highest seen in its direction (a retransmission, or one
 *       reordered behind a later one) neither starts, moves nor ends a call: the time of a call whose request was
 *       retransmitted runs from the first send, so it includes the wait the application saw.</li>
 *   <li>Server payload before any request (the MySQL greeting; the tail of a response when capture began in the
 *       middle of a flow) starts no call; a request still unanswered when the flow ends is not counted.</li>
 * </ul>
 *
 * <p>Cost: per payload packet of a DB flow a few field updates; per call one {@link StrictMath#log}; state objects
 * are allocated once per DB flow and reused through a pool, so nothing is allocated per packet. One thread; not
 * thread-safe.
 */
final class DbCalls {
    private final ArrayDeque<CallState> pool = new ArrayDeque<>();

    /** Feeds one TCP segment of a DB flow; segments without payload are ignored. */
    void offer(FlowStore st, int s, boolean fromClient, Packet p, long ts) {
        if (p.payloadLength <= 0) {
            return;
        }
        CallState c = st.calls[s];
        if (c == null) {
            c = pool.isEmpty() ? new CallState() : pool.pop();
            st.calls[s] = c;
        }
        int end = (int) p.tcpSeq + p.payloadLength;
        if (fromClient) {
            if (c.clientSeqKnown && end - c.clientSeqEnd <= 0) {
                return;
            }
            c.clientSeqEnd = end;
            c.clientSeqKnown = true;
            c.phase = CallState.REQUEST;
            c.lastRequestNs = ts;
        } else {
            if (c.serverSeqKnown && end - c.serverSeqEnd <= 0) {
                return;
            }
            c.serverSeqEnd = end;
            c.serverSeqKnown = true;
            if (c.phase == CallState.REQUEST) {
                c.count(ts - c.lastRequestNs);
            }
            c.phase = CallState.RESPONSE;
        }
    }

    /** Returns a flow's state to the pool when the flow is removed. */
    void release(FlowStore st, int s) {
        CallState c = st.calls[s];
        if (c != null) {
            c.clear();
            pool.push(c);
            st.calls[s] = null;
        }
    }
}
