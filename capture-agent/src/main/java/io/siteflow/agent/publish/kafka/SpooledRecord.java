package io.siteflow.agent.publish.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A Kafka key and value as kept in the spool: {@code [int key length, -1 for no key][key UTF-8][value]}.
 * Immutable.
 *
 * @param key   the record key, or null
 * @param value the record value (FlowRecordJson bytes), never null
 */
record SpooledRecord(String key, byte[] value) {

    byte[] encode() {
        byte[] k = key == null ? new byte[0] : key.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + k.length + value.length)
                .putInt(key == null ? -1 : k.length).put(k).put(value).array();
    }

    /** Decodes {@link #encode()} output; throws IllegalArgumentException for bytes it did not make. */
    static SpooledRecord decode(byte[] bytes) {
        if (bytes.length < 4) {
            throw new IllegalArgumentException("spooled record of " + bytes.length + " bytes has no key length");
        }
        int klen = ByteBuffer.wrap(bytes).getInt();
        if (klen < -1 || klen > bytes.length - 4) {
            throw new IllegalArgumentException("spooled record has a bad key length " + klen);
        }
        int valueStart = 4 + Math.max(0, klen);
        String key = klen < 0 ? null : new String(bytes, 4, klen, StandardCharsets.UTF_8);
        return new SpooledRecord(key, Arrays.copyOfRange(bytes, valueStart, bytes.length));
    }
}
