package io.siteflow.synth;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Oracle Net (TNS) byte streams with protocol-faithful headers: the 8-byte packet header is
 * length (2 bytes, big-endian), packet checksum {@code 00 00}, type, flags, header checksum {@code 00 00}.
 * CONNECT (type 1) carries the connect descriptor at offset 58; ACCEPT is type 2; DATA (type 6) packets
 * hold at most {@link #SDU} bytes each and start with a 2-byte data-flags field and a TTC function code.
 * Stateless; thread-safe when each caller uses its own {@link Random}.
 */
public final class TnsPayloads {
    /** Session data unit: the largest TNS packet written here. */
    public static final int SDU = 8192;
    /** Smallest DATA stream: header, data flags and a TTC function code. */
    public static final int MIN_DATA = 11;
    private static final int HEADER = 8;
    private static final int CONNECT_DATA_OFFSET = 58;

    private TnsPayloads() {
    }

    /** A CONNECT packet naming {@code host:port} and the service, as the JDBC thin driver sends it. */
    public static byte[] connect(String host, int port, String serviceName) {
        String descriptor = "(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=" + host + ")(PORT=" + port + "))"
                + "(CONNECT_DATA=(SERVICE_NAME=" + serviceName + ")(CID=(PROGRAM=JDBC Thin Client)"
                + "(HOST=__jdbc__)(USER=oracle))))";
        byte[] data = descriptor.getBytes(StandardCharsets.US_ASCII);
        byte[] p = new byte[CONNECT_DATA_OFFSET + data.length];
        header(p, p.length, 1);
        put16(p, 8, 0x013A);      // version 314
        put16(p, 10, 0x012C);     // lowest compatible version 300
        put16(p, 12, 0x0C41);     // service options
        put16(p, 14, SDU);
        put16(p, 16, 0xFFFF);     // maximum transmission data unit
        put16(p, 18, 0x7F08);     // NT protocol characteristics
        put16(p, 22, 0x0001);     // the value 1 in hardware byte order
        put16(p, 24, data.length);
        put16(p, 26, CONNECT_DATA_OFFSET);
        put16(p, 30, 0x0800);     // maximum receivable connect data
        p[32] = 0x41;             // connect flags 0 and 1
        p[33] = 0x41;
        System.arraycopy(data, 0, p, CONNECT_DATA_OFFSET, data.length);
        return p;
    }

    /** The listener's ACCEPT packet. */
    public static byte[] accept() {
        byte[] p = new byte[HEADER + 24];
        header(p, p.length, 2);
        put16(p, 8, 0x013A);
        put16(p, 10, 0x0C41);
        put16(p, 12, SDU);
        put16(p, 14, 0xFFFF);
        put16(p, 16, 0x0001);
        put16(p, 20, HEADER + 24);
        p[22] = 0x41;
        p[23] = 0x41;
        return p;
    }

    /**
     * DATA packets totalling exactly {@code size} bytes (at least {@link #MIN_DATA}), each at most {@link #SDU},
     * whose bodies start with data flags {@code 00 00} and the TTC function code {@code ttc}, then random bytes.
     *
     * @throws IllegalArgumentException when {@code size} is below {@link #MIN_DATA}
     */
    public static byte[] data(Random random, int size, int ttc) {
        if (size < MIN_DATA) {
            throw new IllegalArgumentException("TNS data stream of " + size + " bytes: at least " + MIN_DATA);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        int left = size;
        while (left > 0) {
            int len = Math.min(SDU, left);
            if (left - len > 0 && left - len < MIN_DATA) {
                len = left - MIN_DATA;
            }
            byte[] p = new byte[len];
            random.nextBytes(p);
            header(p, len, 6);
            p[8] = 0;
            p[9] = 0;
            p[10] = (byte) ttc;
            out.write(p, 0, len);
            left -= len;
        }
        return out.toByteArray();
    }

    private static void header(byte[] p, int length, int type) {
        put16(p, 0, length);
        p[2] = 0;
        p[3] = 0;
        p[4] = (byte) type;
        p[5] = 0;
        p[6] = 0;
        p[7] = 0;
    }

    static void put16(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }
}
