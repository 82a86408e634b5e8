package io.siteflow.lab;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/** Bodies for the lab's HTTP answers: {@code {"items":[...]}} padded to an exact size. */
final class HttpBodies {
    private HttpBodies() {
    }

    /** A JSON-looking ASCII body of exactly {@code size} bytes (at least 2). */
    static byte[] json(Random r, int size) {
        byte[] b = new byte[Math.max(2, size)];
        Arrays.fill(b, (byte) ' ');
        byte[] head = "{\"items\":[".getBytes(StandardCharsets.US_ASCII);
        if (b.length >= head.length + 2) {
            System.arraycopy(head, 0, b, 0, head.length);
            for (int i = head.length; i < b.length - 2; i++) {
                b[i] = (byte) ('a' + r.nextInt(26));
            }
            b[b.length - 2] = ']';
        } else {
            b[0] = '{';
        }
        b[b.length - 1] = '}';
        return b;
    }
}
