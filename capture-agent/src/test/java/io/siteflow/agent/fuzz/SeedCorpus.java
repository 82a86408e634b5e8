package io.siteflow.agent.fuzz;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.export.ExportSeeds;
import io.siteflow.synth.CoherencePayloads;
import io.siteflow.synth.DnsPayloads;
import io.siteflow.synth.PcapWriter;
import io.siteflow.synth.T3Payloads;
import io.siteflow.synth.TlsPayloads;
import io.siteflow.synth.TnsPayloads;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Writes the seed inputs of this module's fuzz harnesses from the project's own fixtures: the golden captures
 * ({@code src/test/resources/golden}), rewritten by traffic-synth's {@link PcapWriter} in every format and
 * resolution, their frames under every link-layer header, traffic-synth's payload generators, and the flow-export
 * decoder tests' datagram encoders ({@link ExportSeeds}). Run by
 * {@code bench/fuzz.sh --seeds}; the output is committed under {@code src/test/resources/io/siteflow/agent/fuzz/}.
 *
 * <p>Argument: the module directory.
 */
public final class SeedCorpus {
    private static final Random RANDOM = new Random(17);

    private SeedCorpus() {
    }

    public static void main(String[] args) throws IOException, CaptureFileException {
        Path module = Path.of(args[0]);
        Path out = module.resolve("src/test/resources/io/siteflow/agent/fuzz");
        List<byte[]> frames = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (String golden : List.of("coherence-tmb", "dns-udp", "t3-cluster", "tns-connect")) {
            Path file = module.resolve("src/test/resources/golden/" + golden + ".pcap");
            try (CaptureFileReader reader = CaptureFileReader.open(file)) {
                reader.run((ts, link, data, off, cap, wire) -> {
                    frames.add(Arrays.copyOfRange(data, off, off + cap));
                    times.add(ts);
                });
            }
            byte[] pcap = Files.readAllBytes(file);
            write(out, "CaptureFileFuzzTestInputs/readsOrStopsAtAnOffsetInTheFile", golden + ".pcap", pcap);
            write(out, "CaptureFileFuzzTestInputs/readsGzipCompressedCaptures", golden + ".pcap", pcap);
        }
        List<byte[]> few = frames.subList(0, 6);
        for (PcapWriter.Format format : PcapWriter.Format.values()) {
            for (PcapWriter.Resolution resolution : PcapWriter.Resolution.values()) {
                byte[] capture = capture(format, resolution, few, times);
                String name = format.name().toLowerCase() + "-" + resolution.name().toLowerCase();
                write(out, "CaptureFileFuzzTestInputs/readsOrStopsAtAnOffsetInTheFile", name, capture);
                write(out, "CaptureFileFuzzTestInputs/readsGzipCompressedCaptures", name, capture);
            }
        }
        decoderSeeds(out, frames);
        signatureSeeds(out);
        flowTableSeeds(out, frames);
        exportSeeds(out);
    }

    /** Datagram sequences of the decoder tests' encoders ({@link ExportSeeds}), in the export harnesses' layout. */
    private static void exportSeeds(Path out) throws IOException {
        for (var harness : ExportSeeds.all().entrySet()) {
            for (var seed : harness.getValue().entrySet()) {
                write(out, harness.getKey(), seed.getKey(), ExportHarness.input(seed.getValue()));
            }
        }
    }

    private static byte[] capture(PcapWriter.Format format, PcapWriter.Resolution resolution, List<byte[]> frames,
                                  List<Long> times) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(b, format, resolution, 65535)) {
            for (int i = 0; i < frames.size(); i++) {
                w.write(times.get(i), frames.get(i));
            }
        }
        return b.toByteArray();
    }

    /** One frame per link type: an IPv4 packet of the golden captures under that link type's header. */
    private static void decoderSeeds(Path out, List<byte[]> frames) throws IOException {
        byte[] ethernet = frames.get(2);
        byte[] ip = Arrays.copyOfRange(ethernet, 14, ethernet.length);
        for (int i = 0; i < PacketDecoderFuzzTest.LINK_TYPES.length; i++) {
            int type = PacketDecoderFuzzTest.LINK_TYPES[i];
            byte[] frame = switch (type) {
                case 1 -> ethernet;
                case 0 -> cat(new byte[] {2, 0, 0, 0}, ip);
                case 108 -> cat(new byte[] {0, 0, 0, 2}, ip);
                case 9 -> cat(new byte[] {0, 0x21}, ip);
                case 50 -> cat(new byte[] {(byte) 0xFF, 3, 0, 0x21}, ip);
                case 104 -> cat(new byte[] {0x0F, 0, 8, 0}, ip);
                case 113 -> cat(new byte[] {0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0}, ip);
                case 276 -> cat(new byte[] {8, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0, 0}, ip);
                case 242 -> cat(new byte[] {8, 0, 0, 0}, ip);
                default -> ip;
            };
            write(out, "PacketDecoderFuzzTestInputs/decodesAnyFrameOfEveryLinkType", "linktype-" + type,
                    cat(new byte[] {(byte) i, 0}, frame));
        }
    }

    /** One payload per protocol the signatures know, from traffic-synth's generators where it has one. */
    private static void signatureSeeds(Path out) throws IOException {
        String dir = "SignatureFuzzTestInputs/recognisesOrPassesAnyPayload";
        write(out, dir, "tls-client-hello", tcp(TlsPayloads.clientHello(RANDOM, 300)));
        write(out, dir, "tls-application-data", tcp(TlsPayloads.applicationData(RANDOM, 120)));
        write(out, dir, "http", tcp(ascii("GET /soa-infra HTTP/1.1\r\nHost: wls3\r\n\r\n")));
        write(out, dir, "t3-hello", tcp(T3Payloads.CLIENT_HELLO));
        write(out, dir, "t3-helo", tcp(T3Payloads.SERVER_HELLO));
        write(out, dir, "t3-jms", tcp(T3Payloads.message(RANDOM, T3Payloads.sizeFor(T3Payloads.JMS_CLASSES),
                T3Payloads.JMS_CLASSES)));
        write(out, dir, "giop", tcp(cat(ascii("GIOP"), new byte[] {1, 2, 0, 0, 0, 0, 0, 8, 0, 0, 0, 1, 0, 0, 0, 0})));
        write(out, dir, "coherence-tmb", tcp(CoherencePayloads.tmbHandshake(RANDOM)));
        write(out, dir, "coherence-tcmp", udp(CoherencePayloads.tcmp(RANDOM, 64)));
        write(out, dir, "postgres-startup", tcp(new byte[] {0, 0, 0, 8, 0, 3, 0, 0}));
        write(out, dir, "mysql-greeting", tcp(cat(cat(new byte[] {14, 0, 0, 0, 10}, ascii("8.0.36\0")),
                new byte[] {1, 0, 0, 0})));
        write(out, dir, "tns-connect", tcp(TnsPayloads.connect("db1", 1521, "ORCL")));
        write(out, dir, "tns-accept", tcp(TnsPayloads.accept()));
        write(out, dir, "dns", udp(DnsPayloads.query(7, "db1.region1")));
    }

    /** The golden frames as raw-frame steps (op 2), 10 ms apart; long frames are cut to 255 bytes. */
    private static void flowTableSeeds(Path out, List<byte[]> frames) throws IOException {
        ByteArrayOutputStream script = new ByteArrayOutputStream();
        for (byte[] f : frames) {
            int n = Math.min(f.length, 255);
            script.write(new byte[] {2, 0, 0, (byte) n}, 0, 4);
            script.write(f, 0, n);
        }
        script.write(new byte[] {3, 0, 127, 0}, 0, 4);
        write(out, "FlowTableFuzzTestInputs/keepsTotalsExactAndStaysBounded", "golden-frames", script.toByteArray());
        write(out, "FlowTableFuzzTestInputs/keepsTotalsExactAndStaysBounded", "tcp-handshake-and-close",
                new byte[] {0, 0x40, 0, 0, 0, 0x61, 1, 0, 0, 0x10, 1, 0, 0, 0x10, 1, 3, 'a', 'b', 'c',
                    0, 0x21, 1, 0, 0, 0x31, 1, 0, 3, 0, 127, 0});
    }

    private static byte[] tcp(byte[] payload) {
        return cat(new byte[] {0, 0}, payload);
    }

    private static byte[] udp(byte[] payload) {
        return cat(new byte[] {1, 0}, payload);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] cat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    private static void write(Path out, String dir, String name, byte[] content) throws IOException {
        Path d = out.resolve(dir);
        Files.createDirectories(d);
        Files.write(d.resolve(name), content);
    }
}
