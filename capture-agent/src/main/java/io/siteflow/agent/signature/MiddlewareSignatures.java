package io.siteflow.agent.signature;

import static io.siteflow.agent.decode.Bytes.i32;
import static io.siteflow.agent.decode.Bytes.u8;

import io.siteflow.agent.decode.Bytes;

/**
 * IIOP/GIOP and Oracle Coherence. Stateless.
 *
 * <ul>
 *   <li>GIOP: {@code GIOP}, version 1.0-1.3, flags with only the byte-order and fragment bits, message
 *       type 0-7: 8 bytes. MIOP over UDP (multicast GIOP): {@code MIOP} and version {@code 0x10}: 5
 *       bytes.</li>
 *   <li>Coherence TCMP (UDP): packet type {@code 0x0DDF00D0}-{@code 0x0DDF00DA} (diagnostic, ack,
 *       broadcast, directed, request, sequel, name service): 4 bytes.</li>
 *   <li>Coherence TCP message bus and multiplexed sockets: protocol identifier {@code 0x05AC1E001}
 *       or {@code 0x05AC1E000} ({@code 5A C1 E0 01} / {@code 5A C1 E0 00}) at the start: 4 bytes.</li>
 * </ul>
 */
final class MiddlewareSignatures {

    private static final int GIOP = 'G' << 24 | 'I' << 16 | 'O' << 8 | 'P';
    private static final int MIOP = 'M' << 24 | 'I' << 16 | 'O' << 8 | 'P';
    private static final int TCMP_FIRST = 0x0DDF00D0;
    private static final int TCMP_LAST = 0x0DDF00DA;
    private static final int MULTIPLEXED_SOCKET = 0x5AC1E000;
    private static final int SOCKET_MESSAGE_BUS = 0x5AC1E001;

    private MiddlewareSignatures() {
    }

    static boolean giop(byte[] d, int off, int cap) {
        return cap >= 8 && i32(d, off) == GIOP && d[off + 4] == 1 && u8(d, off + 5) <= 3
                && (u8(d, off + 6) & 0xfc) == 0 && u8(d, off + 7) <= 7;
    }

    static boolean miop(byte[] d, int off, int cap) {
        return cap >= 5 && i32(d, off) == MIOP && d[off + 4] == 0x10;
    }

    static boolean tcmp(byte[] d, int off, int cap) {
        if (cap < 4) {
            return false;
        }
        int type = i32(d, off);
        return type >= TCMP_FIRST && type <= TCMP_LAST;
    }

    static boolean tmb(byte[] d, int off, int cap) {
        if (cap < 4) {
            return false;
        }
        int id = i32(d, off);
        return id == SOCKET_MESSAGE_BUS || id == MULTIPLEXED_SOCKET;
    }
}
