package io.siteflow.agent.export;

import io.siteflow.model.IpAddresses;
import java.nio.ByteBuffer;

/**
 * The information elements the collector reads (IANA IPFIX numbers, which NetFlow v9 shares for 1-127), each mapped
 * once per template to a field kind, and the code that applies one field of a data record to an {@link ExportFlow}
 * from a {@link ByteBuffer} without allocation. Every other field, enterprise-specific ones included, is skipped by
 * its length. RFC 5103 reverse elements (enterprise 29305) fill the reverse direction. Static; thread-safe.
 */
final class Fields {
    /** RFC 7011 length value of a variable-length field. */
    static final int VARIABLE = 65535;
    /** RFC 5103: the private enterprise number of reverse information elements. */
    static final long REVERSE_PEN = 29305;

    static final int SKIP = 0;
    static final int SRC4 = 1;
    static final int DST4 = 2;
    static final int SRC6 = 3;
    static final int DST6 = 4;
    static final int SRC_PORT = 5;
    static final int DST_PORT = 6;
    static final int PROTO = 7;
    static final int FLAGS = 8;
    static final int BYTES = 9;
    static final int PACKETS = 10;
    static final int BYTES_TOTAL = 11;
    static final int PACKETS_TOTAL = 12;
    static final int RBYTES = 13;
    static final int RPACKETS = 14;
    static final int RFLAGS = 15;
    static final int FIRST_UPTIME = 16;
    static final int LAST_UPTIME = 17;
    static final int START_S = 18;
    static final int END_S = 19;
    static final int START_MS = 20;
    static final int END_MS = 21;
    static final int START_NTP = 22;
    static final int END_NTP = 23;
    static final int SAMPLING = 24;
    static final int PACKET_INTERVAL = 25;
    static final int PACKET_SPACE = 26;

    private static final long NTP_TO_UNIX_SECONDS = 2_208_988_800L;

    private Fields() {
    }

    /** The kind of information element {@code ie} of enterprise {@code pen} (0: IANA). */
    static int kind(long pen, int ie) {
        if (pen == REVERSE_PEN) {
            return switch (ie) {
                case 1, 85 -> RBYTES;
                case 2, 86 -> RPACKETS;
                case 6 -> RFLAGS;
                default -> SKIP;
            };
        }
        if (pen != 0) {
            return SKIP;
        }
        return switch (ie) {
            case 1 -> BYTES;
            case 2 -> PACKETS;
            case 85 -> BYTES_TOTAL;
            case 86 -> PACKETS_TOTAL;
            case 4 -> PROTO;
            case 6 -> FLAGS;
            case 7 -> SRC_PORT;
            case 11 -> DST_PORT;
            case 8 -> SRC4;
            case 12 -> DST4;
            case 27 -> SRC6;
            case 28 -> DST6;
            case 22 -> FIRST_UPTIME;
            case 21 -> LAST_UPTIME;
            case 150 -> START_S;
            case 151 -> END_S;
            case 152 -> START_MS;
            case 153 -> END_MS;
            case 154, 156 -> START_NTP;
            case 155, 157 -> END_NTP;
            case 34, 50 -> SAMPLING;
            case 305 -> PACKET_INTERVAL;
            case 306 -> PACKET_SPACE;
            default -> SKIP;
        };
    }

    /** Null when {@code length} suits the kind, else what it should be ("4", "1-8"). */
    static String expectedLength(int kind, int length) {
        return switch (kind) {
            case SKIP -> null;
            case SRC4, DST4 -> length == 4 ? null : "4";
            case SRC6, DST6 -> length == 16 ? null : "16";
            case START_NTP, END_NTP -> length == 8 ? null : "8";
            case PROTO -> length == 1 ? null : "1";
            case SRC_PORT, DST_PORT, FLAGS, RFLAGS -> length >= 1 && length <= 2 ? null : "1-2";
            case FIRST_UPTIME, LAST_UPTIME, START_S, END_S -> length >= 1 && length <= 4 ? null : "1-4";
            default -> length >= 1 && length <= 8 ? null : "1-8";
        };
    }

    /** Big-endian unsigned integer of 1 to 8 bytes at {@code p} (reduced-size encoding, RFC 7011 6.2). */
    static long unsigned(ByteBuffer b, int p, int len) {
        long v = 0;
        for (int i = 0; i < len; i++) {
            v = (v << 8) | (b.get(p + i) & 0xFF);
        }
        return v;
    }

    /** Applies the field of {@code kind} and {@code len} bytes at {@code p} to {@code f}. */
    static void apply(int kind, ByteBuffer b, int p, int len, ExportFlow f) {
        switch (kind) {
            case SKIP -> { }
            case SRC4 -> {
                f.srcHi = 0;
                f.srcLo = IpAddresses.v4Lo(b.getInt(p));
                f.hasSrc = true;
            }
            case DST4 -> {
                f.dstHi = 0;
                f.dstLo = IpAddresses.v4Lo(b.getInt(p));
                f.hasDst = true;
            }
            case SRC6 -> {
                f.srcHi = b.getLong(p);
                f.srcLo = b.getLong(p + 8);
                f.hasSrc = true;
            }
            case DST6 -> {
                f.dstHi = b.getLong(p);
                f.dstLo = b.getLong(p + 8);
                f.hasDst = true;
            }
            case SRC_PORT -> f.srcPort = (int) unsigned(b, p, len);
            case DST_PORT -> f.dstPort = (int) unsigned(b, p, len);
            case PROTO -> f.proto = b.get(p) & 0xFF;
            case FLAGS -> f.tcpFlags = (int) unsigned(b, p, len) & 0xFFF;
            case RFLAGS -> {
                f.rtcpFlags = (int) unsigned(b, p, len) & 0xFFF;
                f.biflow = true;
            }
            case BYTES -> {
                f.bytes = unsigned(b, p, len);
                f.deltaBytes = true;
            }
            case PACKETS -> {
                f.packets = unsigned(b, p, len);
                f.deltaPackets = true;
            }
            case BYTES_TOTAL -> {
                if (!f.deltaBytes) {
                    f.bytes = unsigned(b, p, len);
                }
            }
            case PACKETS_TOTAL -> {
                if (!f.deltaPackets) {
                    f.packets = unsigned(b, p, len);
                }
            }
            case RBYTES -> {
                f.rbytes = unsigned(b, p, len);
                f.biflow = true;
            }
            case RPACKETS -> {
                f.rpackets = unsigned(b, p, len);
                f.biflow = true;
            }
            case FIRST_UPTIME -> f.firstUptime = unsigned(b, p, len);
            case LAST_UPTIME -> f.lastUptime = unsigned(b, p, len);
            case START_S -> f.startMs = unsigned(b, p, len) * 1000;
            case END_S -> f.endMs = unsigned(b, p, len) * 1000;
            case START_MS -> f.startMs = unsigned(b, p, len);
            case END_MS -> f.endMs = unsigned(b, p, len);
            case START_NTP -> f.startMs = ntpMillis(b, p);
            case END_NTP -> f.endMs = ntpMillis(b, p);
            case SAMPLING -> f.samplingInterval = unsigned(b, p, len);
            case PACKET_INTERVAL -> f.packetInterval = unsigned(b, p, len);
            case PACKET_SPACE -> f.packetSpace = unsigned(b, p, len);
            default -> throw new IllegalStateException("field kind " + kind);
        }
    }

    /** RFC 7011 dateTimeMicroseconds / dateTimeNanoseconds (NTP format) as epoch ms. */
    private static long ntpMillis(ByteBuffer b, int p) {
        long seconds = b.getInt(p) & 0xFFFF_FFFFL;
        long fraction = b.getInt(p + 4) & 0xFFFF_FFFFL;
        return (seconds - NTP_TO_UNIX_SECONDS) * 1000 + ((fraction * 1000) >>> 32);
    }
}
