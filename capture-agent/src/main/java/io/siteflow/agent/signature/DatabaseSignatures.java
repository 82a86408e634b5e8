package io.siteflow.agent.signature;

import static io.siteflow.agent.decode.Bytes.i32;
import static io.siteflow.agent.decode.Bytes.u8;

import io.siteflow.agent.decode.Bytes;

/**
 * Start-up messages of PostgreSQL and MySQL/MariaDB. Stateless.
 *
 * <ul>
 *   <li>PostgreSQL (client): int32 length equal to the payload length, then int32 code: StartupMessage
 *       with protocol 3.0 ({@code 196608}, length 9-10000), SSLRequest ({@code 80877103}) or
 *       GSSENCRequest ({@code 80877104}) with length 8, CancelRequest ({@code 80877102}) with length
 *       16: 8 bytes.</li>
 *   <li>MySQL (server greeting): 3-byte little-endian length equal to the payload length minus 4,
 *       sequence 0, protocol 10, then a version string that starts with a digit and holds only
 *       printable bytes up to its NUL (or up to the end of the capture): 7 bytes. A server that refuses
 *       the client at once (host not allowed, too many connections) sends an ERR packet instead:
 *       sequence 0, {@code 0xFF}, error code 1000-4999, printable text: 8 bytes.</li>
 * </ul>
 */
final class DatabaseSignatures {

    private static final int PG_PROTOCOL_3 = 196608;
    private static final int PG_SSL_REQUEST = 80877103;
    private static final int PG_GSSENC_REQUEST = 80877104;
    private static final int PG_CANCEL_REQUEST = 80877102;
    private static final int PG_MAX_STARTUP = 10000;
    private static final int MYSQL_PROTOCOL_10 = 10;
    private static final int MYSQL_MAX_VERSION = 64;
    private static final int MYSQL_ERR = 0xff;

    private DatabaseSignatures() {
    }

    static boolean postgres(byte[] d, int off, int cap, int len) {
        if (cap < 8 || i32(d, off) != len) {
            return false;
        }
        int code = i32(d, off + 4);
        if (code == PG_PROTOCOL_3) {
            return len > 8 && len <= PG_MAX_STARTUP;
        }
        if (code == PG_SSL_REQUEST || code == PG_GSSENC_REQUEST) {
            return len == 8;
        }
        return code == PG_CANCEL_REQUEST && len == 16;
    }

    static boolean mysqlGreeting(byte[] d, int off, int cap, int len) {
        if (cap < 7) {
            return false;
        }
        int packet = u8(d, off) | u8(d, off + 1) << 8 | u8(d, off + 2) << 16;
        if (packet + 4 != len || d[off + 3] != 0) {
            return false;
        }
        if (u8(d, off + 4) == MYSQL_ERR) {
            return refusal(d, off, cap);
        }
        if (d[off + 4] != MYSQL_PROTOCOL_10 || !Bytes.isDigit(d[off + 5])) {
            return false;
        }
        int end = Math.min(off + cap, off + 5 + MYSQL_MAX_VERSION);
        for (int i = off + 6; i < end; i++) {
            if (d[i] == 0) {
                return true;
            }
            if (!Bytes.isPrintable(d[i])) {
                return false;
            }
        }
        return end == off + cap;
    }

    /** An ERR packet in place of the greeting: code 1000-4999 (little-endian) and printable text. */
    private static boolean refusal(byte[] d, int off, int cap) {
        int code = u8(d, off + 5) | u8(d, off + 6) << 8;
        return cap >= 8 && code >= 1000 && code <= 4999 && Bytes.isPrintable(d[off + 7]);
    }
}
