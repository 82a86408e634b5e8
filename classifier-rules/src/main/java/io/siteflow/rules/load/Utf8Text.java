package io.siteflow.rules.load;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict UTF-8 decoding of a site model file, naming the byte offset of the first bad byte. Stateless. */
final class Utf8Text {
    private Utf8Text() {
    }

    /** Thrown for bytes that are not UTF-8; the message names the offset and what was found. */
    static final class NotUtf8Exception extends CharacterCodingException {
        private static final long serialVersionUID = 1L;
        private final String message;

        NotUtf8Exception(String message) {
            this.message = message;
        }

        @Override
        public String getMessage() {
            return message;
        }
    }

    /**
     * The text of {@code bytes} (a UTF-8 byte order mark is dropped).
     *
     * @throws NotUtf8Exception {@code byte 17: 0xFF is not UTF-8 (a site model must be UTF-8)}, or for a UTF-16 or
     *                          UTF-32 byte order mark {@code byte 0: UTF-16 byte order mark (0xFF 0xFE): a site model
     *                          must be UTF-8}; a NUL byte (UTF-16 without a byte order mark) is refused too
     */
    static String decode(byte[] bytes) throws NotUtf8Exception {
        String bom = bom(bytes);
        if (bom != null) {
            throw new NotUtf8Exception("byte 0: " + bom + ": a site model must be UTF-8");
        }
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                throw new NotUtf8Exception("byte " + i + ": 0x00 (UTF-16 without a byte order mark?): a site model "
                        + "must be UTF-8");
            }
        }
        int skip = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB
                && (bytes[2] & 0xFF) == 0xBF ? 3 : 0;
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, skip, bytes.length - skip);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = d.decode(in, out, true);
        if (!r.isError()) {
            r = d.flush(out);
        }
        if (r.isError()) {
            int at = in.position();
            StringBuilder found = new StringBuilder();
            for (int i = at; i < Math.min(at + r.length(), bytes.length); i++) {
                found.append(found.length() == 0 ? "" : " ").append(String.format("0x%02X", bytes[i] & 0xFF));
            }
            throw new NotUtf8Exception("byte " + at + ": " + found + " is not UTF-8 (a site model must be UTF-8)");
        }
        return out.flip().toString();
    }

    private static String bom(byte[] b) {
        int b0 = b.length > 0 ? b[0] & 0xFF : -1;
        int b1 = b.length > 1 ? b[1] & 0xFF : -1;
        if (b.length >= 4 && b0 == 0xFF && b1 == 0xFE && b[2] == 0 && b[3] == 0) {
            return "UTF-32 byte order mark (0xFF 0xFE 0x00 0x00)";
        }
        if (b.length >= 4 && b0 == 0 && b1 == 0 && (b[2] & 0xFF) == 0xFE && (b[3] & 0xFF) == 0xFF) {
            return "UTF-32 byte order mark (0x00 0x00 0xFE 0xFF)";
        }
        if (b0 == 0xFF && b1 == 0xFE) {
            return "UTF-16 byte order mark (0xFF 0xFE)";
        }
        if (b0 == 0xFE && b1 == 0xFF) {
            return "UTF-16 byte order mark (0xFE 0xFF)";
        }
        return null;
    }
}
