package io.siteflow.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes a synthetic capture (Ethernet, IPv4/TCP, microseconds, little-endian) for benchmarks:
 * {@code SyntheticPcap FILE PACKETS [FLOWS] [SNAPLEN] [pcap|pcapng]}. Packets cycle through FLOWS
 * 5-tuples with frame sizes between 60 and 1514 bytes, captured up to SNAPLEN (default 256, as the agent
 * captures live). pcapng files hold one interface and enhanced packet blocks. Deterministic: the same
 * arguments give the same file.
 */
public final class SyntheticPcap {
    private SyntheticPcap() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: SyntheticPcap FILE PACKETS [FLOWS] [SNAPLEN] [pcap|pcapng]");
            System.exit(64);
        }
        Path file = Path.of(args[0]);
        long packets = Long.parseLong(args[1]);
        int flows = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        int snapLength = args.length > 3 ? Integer.parseInt(args[3]) : 256;
        boolean pcapng = args.length > 4 && args[4].equals("pcapng");
        SplittableRandom random = new SplittableRandom(42);
        ByteBuffer record = ByteBuffer.allocate(32 + 1514).order(ByteOrder.LITTLE_ENDIAN);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            out.write(pcapng ? pcapngHeader(snapLength) : pcapHeader(snapLength));
            long micros = 1_764_000_000_000_000L;
            for (long i = 0; i < packets; i++) {
                int flow = (int) (i % flows);
                int wire = random.nextInt(10) < 6 ? 60 + random.nextInt(40) : 1000 + random.nextInt(515);
                int captured = Math.min(wire, snapLength);
                micros += 1 + random.nextInt(20);
                record.clear();
                if (pcapng) {
                    int padded = (captured + 3) & ~3;
                    record.putInt(6).putInt(32 + padded).putInt(0).putInt((int) (micros >>> 32)).putInt((int) micros)
                            .putInt(captured).putInt(wire);
                    writeFrame(record, flow, wire, padded, i);
                    record.putInt(32 + padded);
                } else {
                    record.putInt((int) (micros / 1_000_000)).putInt((int) (micros % 1_000_000)).putInt(captured).putInt(wire);
                    writeFrame(record, flow, wire, captured, i);
                }
                out.write(record.array(), 0, record.position());
            }
        }
        System.out.println(file + ": " + packets + " packets, " + flows + " flows, " + Files.size(file) + " bytes");
    }

    private static byte[] pcapHeader(int snapLength) {
        ByteBuffer header = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(snapLength).putInt(1);
        return header.array();
    }

    /** A section header block and one Ethernet interface with the default (µs) resolution. */
    private static byte[] pcapngHeader(int snapLength) {
        ByteBuffer header = ByteBuffer.allocate(48).order(ByteOrder.LITTLE_ENDIAN);
        header.putInt(0x0A0D0D0A).putInt(28).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1).putInt(28);
        header.putInt(1).putInt(20).putShort((short) 1).putShort((short) 0).putInt(snapLength).putInt(20);
        return header.array();
    }

    /** Ethernet + IPv4 + TCP headers for {@code flow}, then zero payload, cut at {@code captured}. */
    private static void writeFrame(ByteBuffer b, int flow, int wire, int captured, long sequence) {
        int start = b.position();
        b.order(ByteOrder.BIG_ENDIAN);
        b.putShort((short) 0x0200).putInt(0x00000001).putShort((short) 0x0200).putInt(0x00000002).putShort((short) 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (wire - 14)).putShort((short) sequence).putShort((short) 0x4000)
                .put((byte) 64).put((byte) 6).putShort((short) 0)
                .putInt(0x0A020000 | (flow & 0xFFFF)).putInt(0x0A010000 | (flow >>> 16));
        b.putShort((short) (32768 + flow % 28000)).putShort((short) 1521).putInt((int) sequence).putInt(0)
                .put((byte) 0x50).put((byte) 0x10).putShort((short) 65535).putInt(0);
        while (b.position() - start < captured) {
            b.put((byte) 0);
        }
        b.position(start + captured);
        b.order(ByteOrder.LITTLE_ENDIAN);
    }
}
