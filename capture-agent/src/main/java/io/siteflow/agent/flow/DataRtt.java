package io.siteflow.agent.flow;

import io.siteflow.agent.decode.Packet;

/**
 * Round-trip samples from established TCP connections: a data segment seen at time t1 and the ACK from
 * the other end that covers it at t2 give the half round trip capture point → receiver → capture point;
 * the two halves of a flow add up to its RTT (as the SYN→SYN/ACK and SYN/ACK→ACK halves do for the
 * handshake). The smallest full sample of a record goes out as {@code dataRttMicros}. Delayed ACKs and
 * server think time only make samples larger, so the minimum is the estimate.
 */
final class DataRtt {
    private static final int ACK = 0x10;

    private DataRtt() {
    }

    static void sample(FlowStore st, int s, boolean ab, Packet p, long ts) {
        long base = st.recStart[s];
        int rel = (int) Math.min(Integer.MAX_VALUE, (ts - base) / 1000);
        int m = st.meta[s];
        // an ACK from this end may cover the other direction's pending segment
        if ((p.tcpFlags & ACK) != 0) {
            int pendFlag = ab ? FlowStore.PEND_BA : FlowStore.PEND_AB;
            int seq = ab ? st.pendSeqBa[s] : st.pendSeqAb[s];
            if ((m & pendFlag) != 0 && (int) p.tcpAck - seq >= 0) {
                int half = rel - (ab ? st.pendTimeBa[s] : st.pendTimeAb[s]);
                if (half >= 0) {
                    if (ab) {
                        st.halfToA[s] = half;
                    } else {
                        st.halfToB[s] = half;
                    }
                    combine(st, s);
                }
                m &= ~pendFlag;
            }
        }
        // a data segment from this end starts a sample when none is pending in this direction
        int myFlag = ab ? FlowStore.PEND_AB : FlowStore.PEND_BA;
        if (p.payloadLength > 0 && (m & myFlag) == 0) {
            int end = (int) p.tcpSeq + p.payloadLength;
            if (ab) {
                st.pendSeqAb[s] = end;
                st.pendTimeAb[s] = rel;
            } else {
                st.pendSeqBa[s] = end;
                st.pendTimeBa[s] = rel;
            }
            m |= myFlag;
        }
        st.meta[s] = m;
    }

    private static void combine(FlowStore st, int s) {
        if (st.halfToA[s] < 0 || st.halfToB[s] < 0) {
            return;
        }
        int total = st.halfToA[s] + st.halfToB[s];
        if (st.dataRttMin[s] < 0 || total < st.dataRttMin[s]) {
            st.dataRttMin[s] = total;
        }
    }
}
