package io.siteflow.agent.signature;

import static io.siteflow.agent.decode.Bytes.u32;
import static io.siteflow.agent.decode.Bytes.u8;

import io.siteflow.agent.decode.Bytes;

/**
 * WebLogic T3 (RMI) and the WebLogic JMS marker inside it.
 *
 * <ul>
 *   <li>Client handshake {@code t3 <version>\n} (e.g. {@code t3 12.2.1\nAS:255\nHL:19\nMS:10000000\n\n}):
 *       4 bytes ({@code t3 } and a digit).</li>
 *   <li>Server handshake reply {@code HELO:<version>} (e.g. {@code HELO:12.2.1.3.0.false\nAS:2048\nHL:19\n\n}):
 *       6 bytes ({@code HELO:} and a digit).</li>
 *   <li>A T3 message on a connection opened before capture began: 4-byte length (itself included)
 *       equal to the payload length, or larger when the message spans segments, at least the 19-byte
 *       header; command byte 1-15; QOS byte {@code 0x65}-{@code 0x67}: 6 bytes.</li>
 *   <li>JMS: {@code weblogic.jms.} anywhere in the captured bytes (class names in the serialized
 *       objects of the first messages; JNDI lookups of connection factories and destinations).</li>
 * </ul>
 * Stateless.
 */
final class T3Signature {

    private static final byte[] CLIENT = Bytes.ascii("t3 ");
    private static final byte[] SERVER = Bytes.ascii("HELO:");
    private static final byte[] JMS = Bytes.ascii("weblogic.jms.");
    private static final int MESSAGE_HEADER = 19;
    private static final int MAX_MESSAGE = 1 << 28;

    private T3Signature() {
    }

    /** True for a T3 handshake line ({@code t3 } or {@code HELO:} and a digit). */
    static boolean handshake(byte[] d, int off, int cap) {
        int end = off + cap;
        if (Bytes.startsWith(d, off, end, CLIENT)) {
            return cap > CLIENT.length && Bytes.isDigit(d[off + CLIENT.length]);
        }
        if (Bytes.startsWith(d, off, end, SERVER)) {
            return cap > SERVER.length && Bytes.isDigit(d[off + SERVER.length]);
        }
        return false;
    }

    /** True for a T3 message header whose length covers the payload. */
    static boolean message(byte[] d, int off, int cap, int len) {
        if (cap < 6) {
            return false;
        }
        long length = u32(d, off);
        int cmd = u8(d, off + 4);
        int qos = u8(d, off + 5);
        return length >= MESSAGE_HEADER && length <= MAX_MESSAGE && length >= len
                && cmd >= 1 && cmd <= 15 && qos >= 0x65 && qos <= 0x67;
    }

    /** True when the captured bytes name a {@code weblogic.jms.} class. */
    static boolean hasJmsMarker(byte[] d, int off, int cap) {
        return Bytes.indexOf(d, off, off + cap, JMS) >= 0;
    }
}
