package io.siteflow.agent.signature;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u32;
import static io.siteflow.agent.decode.Bytes.u8;

import io.siteflow.agent.decode.Bytes;

/**
 * Oracle Net (TNS) packet headers. Every TNS packet starts with an 8-byte header: length (bytes 0-1;
 * bytes 0-3 for data packets once both ends speak version 315 or later), packet checksum (bytes 2-3,
 * {@code 00 00} with the 2-byte length), type (byte 4, 1-19), flags (byte 5), header checksum (bytes
 * 6-7, {@code 00 00}).
 *
 * <ul>
 *   <li>CONNECT (type 1): needs 12 bytes: version (bytes 8-9) 300-399 and compatible version (bytes
 *       10-11) 300 to version; or, for other versions, {@code (DESCRIPTION=} / {@code (CONNECT_DATA=}
 *       in the captured bytes (about 70-90 bytes into the packet).</li>
 *   <li>ACCEPT (type 2): needs 10 bytes: length = payload length and version 300-399.</li>
 *   <li>REFUSE/REDIRECT (4, 5): length = payload length and {@code (DESCRIPTION=} or {@code (ADDRESS=}
 *       in the captured bytes.</li>
 *   <li>Any other type (DATA, MARKER, RESEND, ...), which is what pooled connections that were open
 *       before capture began show: 8 bytes, the 2- or 4-byte length equal to the payload length, flags
 *       below 0x40. A segment that carries only part of a long TNS packet does not match.</li>
 * </ul>
 * Stateless.
 */
final class TnsSignature {

    static final int HEADER = 8;
    private static final int CONNECT = 1;
    private static final int ACCEPT = 2;
    private static final int REFUSE = 4;
    private static final int REDIRECT = 5;
    private static final int MAX_TYPE = 19;
    private static final int MIN_VERSION = 300;
    private static final int MAX_VERSION = 399;
    private static final byte[] DESCRIPTION = Bytes.ascii("(DESCRIPTION=");
    private static final byte[] CONNECT_DATA = Bytes.ascii("(CONNECT_DATA=");
    private static final byte[] ADDRESS = Bytes.ascii("(ADDRESS=");

    private TnsSignature() {
    }

    /** True when the payload {@code d[off, off + cap)} of a {@code len}-byte payload is a TNS packet. */
    static boolean matches(byte[] d, int off, int cap, int len) {
        if (cap < HEADER || d[off + 6] != 0 || d[off + 7] != 0) {
            return false;
        }
        int type = u8(d, off + 4);
        if (type < 1 || type > MAX_TYPE) {
            return false;
        }
        boolean shortForm = d[off + 2] == 0 && d[off + 3] == 0;
        int end = off + cap;
        switch (type) {
            case CONNECT:
                return shortForm && u16(d, off) >= HEADER && connectBody(d, off, end);
            case ACCEPT:
                return shortForm && u16(d, off) == len && cap >= 10 && isVersion(u16(d, off + 8));
            case REFUSE:
            case REDIRECT:
                return shortForm && u16(d, off) == len
                        && (Bytes.indexOf(d, off + HEADER, end, DESCRIPTION) >= 0
                            || Bytes.indexOf(d, off + HEADER, end, ADDRESS) >= 0);
            default:
                return (u8(d, off + 5) & 0xc0) == 0
                        && (shortForm && u16(d, off) == len || u32(d, off) == len);
        }
    }

    private static boolean connectBody(byte[] d, int off, int end) {
        if (end - off >= 12) {
            int version = u16(d, off + 8);
            int compatible = u16(d, off + 10);
            if (isVersion(version) && compatible >= MIN_VERSION && compatible <= version) {
                return true;
            }
        }
        return Bytes.indexOf(d, off + HEADER, end, DESCRIPTION) >= 0
                || Bytes.indexOf(d, off + HEADER, end, CONNECT_DATA) >= 0;
    }

    private static boolean isVersion(int v) {
        return v >= MIN_VERSION && v <= MAX_VERSION;
    }
}
