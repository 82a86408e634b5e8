package io.siteflow.lab.live;

import java.util.Arrays;
import java.util.HexFormat;

/** One packet as a test saw it: timestamp in ns, link type, a copy of the captured bytes, wire length. */
record CapturedPacket(long timestampNanos, int linkType, byte[] bytes, int wireLength) {

    static CapturedPacket copyOf(long ts, int linkType, byte[] data, int offset, int capLen, int wireLen) {
        return new CapturedPacket(ts, linkType, Arrays.copyOfRange(data, offset, offset + capLen), wireLen);
    }

    /** Whether the captured bytes hold {@code needle} anywhere. */
    boolean contains(byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= bytes.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Captured bytes and wire length, for comparing two captures of the same traffic. */
    String content() {
        return wireLength + ":" + HexFormat.of().formatHex(bytes);
    }

    /** IPv4 source address (dotted) of an untagged Ethernet frame, or "" when it is not IPv4. */
    String ipv4Source() {
        return ipv4At(26);
    }

    /** IPv4 destination address (dotted) of an untagged Ethernet frame, or "" when it is not IPv4. */
    String ipv4Destination() {
        return ipv4At(30);
    }

    private String ipv4At(int at) {
        if (bytes.length < 34 || bytes[12] != 0x08 || bytes[13] != 0x00) {
            return "";
        }
        return (bytes[at] & 0xFF) + "." + (bytes[at + 1] & 0xFF) + "." + (bytes[at + 2] & 0xFF) + "." + (bytes[at + 3] & 0xFF);
    }
}
