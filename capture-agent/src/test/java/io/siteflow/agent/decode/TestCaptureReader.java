package io.siteflow.agent.decode;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * Test-only reader of classic pcap (both byte orders, µs/ns), pcapng (SHB/IDB/EPB/SPB/OPB, per-interface
 * link types) and gzip-compressed files, so the decoder can be checked against the corpus on its own.
 * Stops quietly at the first damaged or cut-short record, like tshark's tables do.
 */
final class TestCaptureReader {
    /** Receives each packet. */
    interface Sink {
        void packet(int linkType, byte[] data, int offset, int capLen, int wireLen);
    }

    private TestCaptureReader() {
    }

    /** Reads every packet of {@code file}; returns the number of packets handed to {@code sink}. */
    static int read(Path file, Sink sink) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length >= 2 && (bytes[0] & 0xFF) == 0x1F && (bytes[1] & 0xFF) == 0x8B) {
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
                bytes = in.readAllBytes();
            } catch (IOException e) {
                return 0;
            }
        }
        if (bytes.length < 24) {
            return 0;
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int magic = buf.getInt(0);
        if (magic == 0x0A0D0D0A) {
            return pcapng(buf, sink);
        }
        if (magic == 0xA1B2C3D4 || magic == 0xA1B23C4D) {
            return pcap(buf, sink);
        }
        if (Integer.reverseBytes(magic) == 0xA1B2C3D4 || Integer.reverseBytes(magic) == 0xA1B23C4D) {
            return pcap(buf.order(ByteOrder.BIG_ENDIAN), sink);
        }
        return 0;
    }

    private static int pcap(ByteBuffer buf, Sink sink) {
        if (buf.getShort(4) != 2) {
            return 0;
        }
        int linkType = buf.getInt(20);
        int count = 0;
        for (int p = 24; p + 16 <= buf.limit(); count++) {
            int capLen = buf.getInt(p + 8);
            int wireLen = buf.getInt(p + 12);
            if (capLen < 0 || capLen > buf.limit() - p - 16 || capLen > 0x4000000) {
                break;
            }
            sink.packet(linkType, buf.array(), p + 16, capLen, wireLen);
            p += 16 + capLen;
        }
        return count;
    }

    private static int pcapng(ByteBuffer buf, Sink sink) {
        int[] linkTypes = new int[0];
        int count = 0;
        for (int p = 0; p + 12 <= buf.limit(); ) {
            int type = buf.getInt(p);
            if (type == 0x0A0D0D0A) {
                int order = buf.getInt(p + 8);
                buf.order(order == 0x1A2B3C4D ? buf.order() : opposite(buf.order()));
                if (buf.getShort(p + 12) != 1 || buf.getShort(p + 14) != 0 && buf.getShort(p + 14) != 2) {
                    break;
                }
                linkTypes = new int[0];
            }
            int length = buf.getInt(p + 4);
            if (length < 12 || length > buf.limit() - p) {
                break;
            }
            if (type == 1) {
                linkTypes = java.util.Arrays.copyOf(linkTypes, linkTypes.length + 1);
                linkTypes[linkTypes.length - 1] = buf.getShort(p + 8) & 0xFFFF;
            } else if (type == 6 || type == 2) {
                boolean enhanced = type == 6;
                int iface = enhanced ? buf.getInt(p + 8) : buf.getShort(p + 8) & 0xFFFF;
                int capLen = buf.getInt(p + 20);
                int wireLen = buf.getInt(p + 24);
                if (iface < 0 || iface >= linkTypes.length || capLen < 0 || capLen > length - 32) {
                    break;
                }
                sink.packet(linkTypes[iface], buf.array(), p + 28, capLen, wireLen);
                count++;
            } else if (type == 3) {
                int wireLen = buf.getInt(p + 8);
                int capLen = Math.min(wireLen, length - 16);
                if (linkTypes.length == 0 || capLen < 0) {
                    break;
                }
                sink.packet(linkTypes[0], buf.array(), p + 12, capLen, wireLen);
                count++;
            }
            p += length;
        }
        return count;
    }

    private static ByteOrder opposite(ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    }
}
