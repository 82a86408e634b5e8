package io.siteflow.lab;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * SSH-like byte streams for the isolation lab: the version lines in clear (RFC 4253 §4.2), then binary packets as
 * SSH frames them after the key exchange (§6): a 4-byte {@code packet_length} that does not count itself, a padding
 * length byte, and random (encrypted-looking) bytes. The agent has no SSH signature, and these bytes match none of
 * its others: the length never equals the segment's payload (TNS) nor reaches it (T3), the first byte is 0 (TLS),
 * the padding length is at least 16 (a T3 command is 1-15). Stateless.
 */
final class SshLike {
    static final byte[] SERVER_VERSION = ascii("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n");
    static final byte[] CLIENT_VERSION = ascii("SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u3\r\n");
    /** Smallest packet: length, padding length, 7 bytes and the 4 of the reply size the lab's requests carry. */
    static final int MIN_PACKET = 16;

    private SshLike() {
    }

    /**
     * One binary packet of exactly {@code size} bytes on the wire.
     *
     * @throws IllegalArgumentException when {@code size} is below {@link #MIN_PACKET} or above 32 KiB
     */
    static byte[] packet(Random random, int size) {
        if (size < MIN_PACKET || size > 32_768) {
            throw new IllegalArgumentException("SSH packet of " + size + " bytes: 16 to 32768");
        }
        byte[] p = new byte[size];
        random.nextBytes(p);
        int length = size - 4;
        p[0] = 0;
        p[1] = 0;
        p[2] = (byte) (length >>> 8);
        p[3] = (byte) length;
        p[4] = (byte) (16 + random.nextInt(240));
        return p;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
