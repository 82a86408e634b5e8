package io.siteflow.agent.signature;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u8;

import io.siteflow.agent.decode.Bytes;

/**
 * TLS (and SSL 3.0) handshake records: content type 22, record version {@code 03 00}-{@code 03 04},
 * record length 1-18432, handshake type 1 (ClientHello) or 2 (ServerHello), hello version
 * {@code 03 00}-{@code 03 04}: 11 bytes. The server name is read by {@link TlsServerName}.
 * Stateless.
 */
final class TlsSignature {

    static final int HANDSHAKE = 22;
    static final int CLIENT_HELLO = 1;
    private static final int SERVER_HELLO = 2;
    private static final int MAX_RECORD = 16384 + 2048;

    private TlsSignature() {
    }

    static boolean matches(byte[] d, int off, int cap) {
        if (cap < 11 || u8(d, off) != HANDSHAKE || !isVersion(d, off + 1)) {
            return false;
        }
        int record = u16(d, off + 3);
        int type = u8(d, off + 5);
        return record > 0 && record <= MAX_RECORD && (type == CLIENT_HELLO || type == SERVER_HELLO)
                && isVersion(d, off + 9);
    }

    /** True for a ClientHello record header (see {@link #matches}); the caller checked {@code matches}. */
    static boolean isClientHello(byte[] d, int off) {
        return u8(d, off + 5) == CLIENT_HELLO;
    }

    private static boolean isVersion(byte[] d, int i) {
        return d[i] == 3 && d[i + 1] >= 0 && d[i + 1] <= 4;
    }
}
