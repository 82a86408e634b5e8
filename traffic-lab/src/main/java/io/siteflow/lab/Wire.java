package io.siteflow.lab;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reading helpers shared by the lab's clients and servers. Every request the lab sends carries the size
 * of the answer it wants in its last four bytes (big-endian), inside the random part of the protocol's
 * body, so servers stay stateless and the byte mix is chosen by the clients alone.
 */
final class Wire {
    private Wire() {
    }

    /** Writes {@code value} big-endian into the last four bytes of {@code message}. */
    static byte[] withReplySize(byte[] message, int value) {
        int at = message.length - 4;
        message[at] = (byte) (value >>> 24);
        message[at + 1] = (byte) (value >>> 16);
        message[at + 2] = (byte) (value >>> 8);
        message[at + 3] = (byte) value;
        return message;
    }

    /** The reply size a request asks for (its last four bytes). */
    static int replySize(byte[] message, int length) {
        int at = length - 4;
        return (message[at] & 0xFF) << 24 | (message[at + 1] & 0xFF) << 16 | (message[at + 2] & 0xFF) << 8
                | message[at + 3] & 0xFF;
    }

    /** Reads exactly {@code n} bytes. */
    static byte[] read(InputStream in, int n) throws IOException {
        byte[] b = new byte[n];
        new DataInputStream(in).readFully(b);
        return b;
    }

    /** Reads a big-endian 32-bit integer. */
    static int readInt(InputStream in) throws IOException {
        return new DataInputStream(in).readInt();
    }

    /** Reads and discards exactly {@code n} bytes. */
    static void skip(InputStream in, long n) throws IOException {
        byte[] buf = new byte[8192];
        long left = n;
        while (left > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (r < 0) {
                throw new EOFException("connection closed with " + left + " bytes of a reply unread");
            }
            left -= r;
        }
    }

    /** Reads up to and including {@code end} (ASCII, at most 64 KiB). */
    static String readUntil(InputStream in, String end) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("connection closed before \"" + end.replace("\n", "\\n") + "\"");
            }
            out.write(c);
            String s = out.toString(java.nio.charset.StandardCharsets.US_ASCII);
            if (s.endsWith(end)) {
                return s;
            }
            if (out.size() > 65_536) {
                throw new IOException("no \"" + end.replace("\n", "\\n") + "\" within 64 KiB");
            }
        }
    }
}
