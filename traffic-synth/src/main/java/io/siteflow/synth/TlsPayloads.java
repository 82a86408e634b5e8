package io.siteflow.synth;

import java.io.ByteArrayOutputStream;
import java.util.Random;

/**
 * TLS 1.2 record streams for the administration channels (admin port, Node Manager): a ClientHello record
 * ({@code 16 03 01 ...}, handshake type 1), a server flight of handshake records ({@code 16 03 03}) and
 * application-data records ({@code 17 03 03}), each at most 16 KiB + 5 bytes, bodies random.
 * Stateless; thread-safe when each caller uses its own {@link Random}.
 */
public final class TlsPayloads {
    private static final int RECORD_HEADER = 5;
    private static final int MAX_BODY = 16_384;
    /** Smallest stream: one record header and a byte. */
    public static final int MIN_STREAM = RECORD_HEADER + 1;

    private TlsPayloads() {
    }

    /** A ClientHello record of exactly {@code size} bytes (at least 48). */
    public static byte[] clientHello(Random random, int size) {
        if (size < 48) {
            throw new IllegalArgumentException("ClientHello of " + size + " bytes: at least 48");
        }
        byte[] r = records(random, size, 0x16, 0x0301);
        r[5] = 1;                        // handshake type client_hello
        r[6] = 0;
        TnsPayloads.put16(r, 7, size - 9);
        r[9] = 3;                        // client version 3.3
        r[10] = 3;
        return r;
    }

    /** Handshake records (ServerHello, certificate, ...) totalling exactly {@code size} bytes. */
    public static byte[] serverFlight(Random random, int size) {
        byte[] r = records(random, size, 0x16, 0x0303);
        r[5] = 2;                        // handshake type server_hello
        return r;
    }

    /** Application-data records totalling exactly {@code size} bytes. */
    public static byte[] applicationData(Random random, int size) {
        return records(random, size, 0x17, 0x0303);
    }

    private static byte[] records(Random random, int size, int type, int version) {
        if (size < MIN_STREAM) {
            throw new IllegalArgumentException("TLS stream of " + size + " bytes: at least " + MIN_STREAM);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        int left = size;
        while (left > 0) {
            int len = Math.min(RECORD_HEADER + MAX_BODY, left);
            if (left - len > 0 && left - len < MIN_STREAM) {
                len = left - MIN_STREAM;
            }
            byte[] rec = new byte[len];
            random.nextBytes(rec);
            rec[0] = (byte) type;
            TnsPayloads.put16(rec, 1, version);
            TnsPayloads.put16(rec, 3, len - RECORD_HEADER);
            out.write(rec, 0, len);
            left -= len;
        }
        return out.toByteArray();
    }
}
