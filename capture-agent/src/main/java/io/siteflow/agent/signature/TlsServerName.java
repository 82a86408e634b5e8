package io.siteflow.agent.signature;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u8;

import io.siteflow.agent.decode.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Finds the {@code server_name} (SNI, RFC 6066) host name in a TLS ClientHello that starts at the
 * payload start. The name is reported only when the record header, the hello up to the extension and
 * the whole name lie in the captured bytes and inside the first record, and the name is 1-255 bytes of
 * letters, digits, {@code -}, {@code _} and {@code .}. A ClientHello of a browser often puts the
 * extension 200-500 bytes in, past a 256-byte snap length; Java and curl clients send it within the
 * first 150-250 bytes. Stateless.
 */
final class TlsServerName {

    private static final int RECORD_HEADER = 5;
    private static final int HELLO_FIXED = 4 + 2 + 32;
    private static final int SERVER_NAME = 0;
    private static final int HOST_NAME = 0;

    private TlsServerName() {
    }

    /**
     * Locates the host name.
     *
     * @return {@code offset << 8 | length} of the name in {@code d}, or -1 when there is none
     */
    static long locate(byte[] d, int off, int cap) {
        if (!TlsSignature.matches(d, off, cap) || !TlsSignature.isClientHello(d, off)) {
            return -1;
        }
        int end = Math.min(off + cap, off + RECORD_HEADER + u16(d, off + 3));
        int i = off + RECORD_HEADER + HELLO_FIXED;
        if (i + 1 > end) {
            return -1;
        }
        i += 1 + u8(d, i);                                  // session id
        if (i + 2 > end) {
            return -1;
        }
        i += 2 + u16(d, i);                                 // cipher suites
        if (i + 1 > end) {
            return -1;
        }
        i += 1 + u8(d, i);                                  // compression methods
        if (i + 2 > end) {
            return -1;
        }
        int extEnd = Math.min(end, i + 2 + u16(d, i));
        i += 2;
        while (i + 4 <= extEnd) {
            int type = u16(d, i);
            int len = u16(d, i + 2);
            if (type == SERVER_NAME) {
                return hostName(d, i + 4, Math.min(extEnd, i + 4 + len));
            }
            i += 4 + len;
        }
        return -1;
    }

    /** Reads the first host_name entry of a server_name_list in {@code d[i, end)}. */
    private static long hostName(byte[] d, int i, int end) {
        if (i + 5 > end || u8(d, i + 2) != HOST_NAME) {
            return -1;
        }
        int nameLen = u16(d, i + 3);
        int name = i + 5;
        if (nameLen == 0 || nameLen > 255 || name + nameLen > end) {
            return -1;
        }
        for (int k = name; k < name + nameLen; k++) {
            if (!isHostChar(d[k])) {
                return -1;
            }
        }
        return (long) name << 8 | nameLen;
    }

    /** The host name at a location from {@link #locate}, in lower case. */
    static String read(byte[] d, long location) {
        int name = (int) (location >>> 8);
        int len = (int) (location & 0xff);
        return new String(d, name, len, StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
    }

    private static boolean isHostChar(byte b) {
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
                || b == '-' || b == '.' || b == '_';
    }
}
