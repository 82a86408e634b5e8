package io.siteflow.agent.signature;

import static io.siteflow.agent.decode.Bytes.u16;
import static io.siteflow.agent.decode.Bytes.u8;

import io.siteflow.agent.decode.Bytes;

/**
 * TLS, recognised two ways. Stateless.
 *
 * <ul>
 *   <li>{@link #matches}: a hello, the start of a connection: content type 22, record version
 *       {@code 03 00}-{@code 03 04}, record length 1-18432, handshake type 1 (ClientHello) or 2 (ServerHello),
 *       hello version {@code 03 00}-{@code 03 04}: 11 bytes. The server name is read by {@link TlsServerName}.</li>
 *   <li>{@link #record}: any record of a connection already running when the capture began (or whose hello was
 *       lost): a 5-byte record header (type 20-24: change cipher spec, alert, handshake, application data,
 *       heartbeat; version {@code 03 01}-{@code 03 04}; length 1-18432) at the start of the segment, and a length
 *       that fits the segment: the record ends exactly where the segment does, or a second record header of the
 *       same version starts where the first ends (and is captured), or an application-data record continues past
 *       the segment (its later segments start mid-record and are not recognised; the first one of the next record
 *       is). A segment that starts mid-record never matches.</li>
 * </ul>
 */
final class TlsSignature {

    private static final int RECORD_HEADER = 5;
    private static final int CHANGE_CIPHER_SPEC = 20;
    static final int HANDSHAKE = 22;
    private static final int APPLICATION_DATA = 23;
    private static final int HEARTBEAT = 24;
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

    /**
     * True when the segment starts with a TLS record whose length fits the segment (see the class comment).
     *
     * @param cap captured payload bytes from {@code off}
     * @param len payload length on the wire
     */
    static boolean record(byte[] d, int off, int cap, int len) {
        if (cap < RECORD_HEADER || !isRecordHeader(d, off)) {
            return false;
        }
        int next = RECORD_HEADER + u16(d, off + 3);
        if (next == len) {
            return true;
        }
        if (next > len) {
            return u8(d, off) == APPLICATION_DATA;
        }
        int second = off + next;
        return next + RECORD_HEADER <= cap && isRecordHeader(d, second) && d[second + 2] == d[off + 2];
    }

    private static boolean isRecordHeader(byte[] d, int i) {
        int type = u8(d, i);
        int length = u16(d, i + 3);
        return type >= CHANGE_CIPHER_SPEC && type <= HEARTBEAT && d[i + 1] == 3 && d[i + 2] >= 1 && d[i + 2] <= 4
                && length > 0 && length <= MAX_RECORD;
    }

    /** True for a ClientHello record header (see {@link #matches}); the caller checked {@code matches}. */
    static boolean isClientHello(byte[] d, int off) {
        return u8(d, off + 5) == CLIENT_HELLO;
    }

    private static boolean isVersion(byte[] d, int i) {
        return d[i] == 3 && d[i + 1] >= 0 && d[i + 1] <= 4;
    }
}
