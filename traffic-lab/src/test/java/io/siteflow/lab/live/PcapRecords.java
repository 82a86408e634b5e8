package io.siteflow.lab.live;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal classic-pcap reader for tests (both byte orders, µs and ns timestamps). A record cut short at
 * the end of the file (a file still being written) is left out.
 */
final class PcapRecords {
    private PcapRecords() {
    }

    static List<CapturedPacket> read(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
        if (b.remaining() < 24) {
            return List.of();
        }
        int magic = b.order(ByteOrder.LITTLE_ENDIAN).getInt(0);
        boolean nanos = magic == 0xa1b23c4d || Integer.reverseBytes(magic) == 0xa1b23c4d;
        if (magic != 0xa1b2c3d4 && magic != 0xa1b23c4d) {
            b.order(ByteOrder.BIG_ENDIAN);
        }
        int linkType = b.getInt(20) & 0xFFFF;
        List<CapturedPacket> out = new ArrayList<>();
        int at = 24;
        while (at + 16 <= b.limit()) {
            long sec = b.getInt(at) & 0xFFFF_FFFFL;
            long frac = b.getInt(at + 4) & 0xFFFF_FFFFL;
            int capLen = b.getInt(at + 8);
            int wireLen = b.getInt(at + 12);
            if (at + 16 + capLen > b.limit()) {
                break;
            }
            byte[] data = new byte[capLen];
            b.get(at + 16, data);
            out.add(new CapturedPacket(sec * 1_000_000_000L + (nanos ? frac : frac * 1000), linkType, data, wireLen));
            at += 16 + capLen;
        }
        return out;
    }
}
