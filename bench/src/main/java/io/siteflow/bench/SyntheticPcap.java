package io.siteflow.bench;

import io.siteflow.synth.PcapWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes a synthetic capture (Ethernet, IPv4/TCP, microseconds, little-endian) for benchmarks with traffic-synth's
 * {@link PcapWriter}:
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
        byte[] frame = new byte[1514];
        ByteBuffer headers = ByteBuffer.wrap(frame);
        PcapWriter.Format format = pcapng ? PcapWriter.Format.PCAPNG : PcapWriter.Format.PCAP;
        try (PcapWriter out = PcapWriter.create(file, format, PcapWriter.Resolution.MICROS, snapLength)) {
            long micros = 1_764_000_000_000_000L;
            for (long i = 0; i < packets; i++) {
                int flow = (int) (i % flows);
                int wire = random.nextInt(10) < 6 ? 60 + random.nextInt(40) : 1000 + random.nextInt(515);
                micros += 1 + random.nextInt(20);
                writeHeaders(headers.clear(), flow, wire, i);
                out.write(micros * 1000, frame, 0, wire);
            }
        }
        System.out.println(file + ": " + packets + " packets, " + flows + " flows, " + Files.size(file) + " bytes");
    }

    /** Ethernet + IPv4 + TCP headers for {@code flow}; the payload after them stays zero. */
    private static void writeHeaders(ByteBuffer b, int flow, int wire, long sequence) {
        b.putShort((short) 0x0200).putInt(0x00000001).putShort((short) 0x0200).putInt(0x00000002).putShort((short) 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (wire - 14)).putShort((short) sequence).putShort((short) 0x4000)
                .put((byte) 64).put((byte) 6).putShort((short) 0)
                .putInt(0x0A020000 | (flow & 0xFFFF)).putInt(0x0A010000 | (flow >>> 16));
        b.putShort((short) (32768 + flow % 28000)).putShort((short) 1521).putInt((int) sequence).putInt(0)
                .put((byte) 0x50).put((byte) 0x10).putShort((short) 65535).putInt(0);
    }
}
