package io.siteflow.synth;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * DNS messages (RFC 1035): a recursive A query and its answer with one A record (TTL 300, name compressed
 * to the question). Stateless and thread-safe.
 */
public final class DnsPayloads {
    private DnsPayloads() {
    }

    /** An A query for {@code name} with transaction id {@code id}. */
    public static byte[] query(int id, String name) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        header(out, id, 0x0100, 0);
        question(out, name);
        return out.toByteArray();
    }

    /** The answer to {@link #query}: {@code name} has IPv4 address {@code ipv4} (4 bytes). */
    public static byte[] answer(int id, String name, byte[] ipv4) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        header(out, id, 0x8180, 1);
        question(out, name);
        out.write(0xC0);                 // pointer to the question name at offset 12
        out.write(12);
        write16(out, 1);                 // type A
        write16(out, 1);                 // class IN
        write16(out, 0);                 // TTL 300
        write16(out, 300);
        write16(out, 4);
        out.write(ipv4, 0, 4);
        return out.toByteArray();
    }

    private static void header(ByteArrayOutputStream out, int id, int flags, int answers) {
        write16(out, id);
        write16(out, flags);
        write16(out, 1);
        write16(out, answers);
        write16(out, 0);
        write16(out, 0);
    }

    private static void question(ByteArrayOutputStream out, String name) {
        for (String label : name.split("\\.")) {
            byte[] b = label.getBytes(StandardCharsets.US_ASCII);
            out.write(b.length);
            out.write(b, 0, b.length);
        }
        out.write(0);
        write16(out, 1);
        write16(out, 1);
    }

    private static void write16(ByteArrayOutputStream out, int v) {
        out.write(v >>> 8);
        out.write(v);
    }
}
