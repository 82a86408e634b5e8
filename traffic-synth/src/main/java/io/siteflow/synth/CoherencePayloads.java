package io.siteflow.synth;

import java.util.Random;

/**
 * Oracle Coherence cluster traffic: TCMP datagrams (UDP) start with {@code 0D DF 00 D1}; the TCP message bus
 * (TMB) opens with a {@code 5A C1 E0 00} handshake from each end, then length-prefixed messages.
 * Stateless; thread-safe when each caller uses its own {@link Random}.
 */
public final class CoherencePayloads {
    private static final byte[] TCMP_MAGIC = {0x0D, (byte) 0xDF, 0x00, (byte) 0xD1};
    private static final byte[] TMB_MAGIC = {0x5A, (byte) 0xC1, (byte) 0xE0, 0x00};
    /** Size of a TMB handshake message. */
    public static final int TMB_HANDSHAKE = 64;

    private CoherencePayloads() {
    }

    /** A TCMP datagram payload of exactly {@code size} bytes (at least 4). */
    public static byte[] tcmp(Random random, int size) {
        return withMagic(random, size, TCMP_MAGIC);
    }

    /** A TMB handshake message. */
    public static byte[] tmbHandshake(Random random) {
        return withMagic(random, TMB_HANDSHAKE, TMB_MAGIC);
    }

    /** A TMB message of exactly {@code size} bytes (at least 4): big-endian length of the rest, then random bytes. */
    public static byte[] tmbMessage(Random random, int size) {
        if (size < 4) {
            throw new IllegalArgumentException("TMB message of " + size + " bytes: at least 4");
        }
        byte[] m = new byte[size];
        random.nextBytes(m);
        Frames.putInt(m, 0, size - 4);
        return m;
    }

    private static byte[] withMagic(Random random, int size, byte[] magic) {
        if (size < magic.length) {
            throw new IllegalArgumentException("Coherence payload of " + size + " bytes: at least " + magic.length);
        }
        byte[] m = new byte[size];
        random.nextBytes(m);
        System.arraycopy(magic, 0, m, 0, magic.length);
        return m;
    }
}
