package io.siteflow.rules.model;

import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import java.util.Objects;

/**
 * The facts of a flow that classification looks at. {@code src} is the initiator, {@code dst} the responder
 * (the server side). Addresses are in the two-long form of {@link IpAddresses}. Immutable.
 *
 * @param proto   IANA protocol number (0-255)
 * @param srcHi   initiator address, high 64 bits
 * @param srcLo   initiator address, low 64 bits
 * @param srcPort initiator port, 0 when the protocol has none
 * @param dstHi   responder address, high 64 bits
 * @param dstLo   responder address, low 64 bits
 * @param dstPort responder port, 0 when the protocol has none
 * @param l7      detected application protocol, {@link L7Protocol#UNKNOWN} when none
 */
public record Flow(int proto, long srcHi, long srcLo, int srcPort, long dstHi, long dstLo, int dstPort,
                   L7Protocol l7) {
    public Flow {
        Objects.requireNonNull(l7, "l7");
    }

    /** The responder address as text. */
    public String dst() {
        return IpAddresses.format(dstHi, dstLo);
    }

    /** The initiator address as text. */
    public String src() {
        return IpAddresses.format(srcHi, srcLo);
    }

    /**
     * The flow in the syntax of {@code siteflow rules explain}, e.g. {@code tcp 10.2.0.20:40112 -> 10.1.0.10:1521};
     * ports are left out when both are 0 and the protocol is neither TCP nor UDP.
     */
    @Override
    public String toString() {
        boolean ports = proto == Protocols.TCP || proto == Protocols.UDP || srcPort != 0 || dstPort != 0;
        String s = Protocols.name(proto) + " " + endpoint(srcHi, srcLo, srcPort, ports) + " -> "
                + endpoint(dstHi, dstLo, dstPort, ports);
        return l7 == L7Protocol.UNKNOWN ? s : s + " l7=" + l7.wireName();
    }

    private static String endpoint(long hi, long lo, int port, boolean withPort) {
        String a = IpAddresses.format(hi, lo);
        if (!withPort) {
            return a;
        }
        return IpAddresses.isV4(hi, lo) ? a + ":" + port : "[" + a + "]:" + port;
    }
}
