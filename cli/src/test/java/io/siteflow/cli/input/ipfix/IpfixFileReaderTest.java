package io.siteflow.cli.input.ipfix;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.cli.input.FlowInput;
import io.siteflow.cli.input.flowlog.ReadResult;
import io.siteflow.model.FlowRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * IPFIX files (RFC 5655), written here message by message as RFC 7011 lays them out: templates kept per observation
 * domain across messages, both directions joined into one record by the collector's joiner, a malformed message
 * named by the file and its offset and the messages after it read, a file cut short read up to the cut; recognised
 * by content, plain or gzip-compressed.
 */
class IpfixFileReaderTest {
    private static final long SECS = 1_764_000_000L;
    private static final String A = "10.2.0.20";
    private static final String B = "10.1.0.10";

    @TempDir
    Path dir;

    private final List<FlowRecord> records = new ArrayList<>();

    @Test
    void readsEveryMessageWithTheTemplatesOfItsDomainAndJoinsBothDirections() throws IOException {
        byte[] file = cat(
                message(0, 7, template(), data(A, B, 40112, 1521, 5_200, 10, 0x02)),
                message(1, 7, data(B, A, 1521, 40112, 41_000, 8, 0x12)),
                message(0, 9, data(A, B, 40113, 1521, 100, 1, 0x02)),
                message(2, 7, data(A, "10.1.0.11", 40114, 8011, 700, 5, 0x1B)));

        ReadResult r = read(file);

        assertThat(r.problems()).containsExactly("t.ipfix: message at offset 180: IPFIX domain 9: data set of "
                + "template 256 at offset 16: no such template (not received yet, withdrawn or expired)");
        assertThat(records).extracting(f -> f.src() + ":" + f.srcPort() + ">" + f.dst() + ":" + f.dstPort() + " "
                + f.bytes() + "/" + f.packets() + " " + f.rbytes() + "/" + f.rpackets() + " " + f.exporter())
                .containsExactlyInAnyOrder("10.2.0.20:40112>10.1.0.10:1521 5200/10 41000/8 0.0.0.0",
                        "10.2.0.20:40114>10.1.0.11:8011 700/5 0/0 0.0.0.0");
        assertThat(r.records()).isEqualTo(2);
        assertThat(r.packets()).isEqualTo(23);
        assertThat(records).allSatisfy(f -> assertThat(f.agent()).isEqualTo("audit"));
    }

    @Test
    void readsUpToAMessageCutShortByTheEndOfTheFile() throws IOException {
        byte[] whole = message(0, 7, template(), data(A, B, 40112, 1521, 5_200, 10, 0x1B));
        byte[] next = message(1, 7, data(A, B, 40112, 1521, 100, 1, 0x11));
        byte[] file = cat(whole, java.util.Arrays.copyOf(next, 30));

        ReadResult r = read(file);

        assertThat(r.problems()).containsExactly("t.ipfix: offset " + whole.length + ": message length "
                + next.length + ", the file ends 30 bytes into it; the rest of the file is not read");
        assertThat(records).extracting(FlowRecord::bytes).containsExactly(5_200L);
    }

    @Test
    void stopsAtAHeaderThatIsNotIpfixAfterWhatWasRead() throws IOException {
        byte[] whole = message(0, 7, template(), data(A, B, 40112, 1521, 5_200, 10, 0x1B));
        byte[] file = cat(whole, new byte[] {0, 9, 0, 20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14});

        ReadResult r = read(file);

        assertThat(r.problems()).containsExactly("t.ipfix: offset " + whole.length + ": version 9 is not IPFIX (10); "
                + "the rest of the file is not read");
        assertThat(records).hasSize(1);
    }

    @Test
    void isRecognisedByContentPlainOrGzipCompressed() throws IOException {
        byte[] file = cat(message(0, 7, template(), data(A, B, 40112, 1521, 5_200, 10, 0x1B)));
        Path plain = dir.resolve("flows.bin");
        Files.write(plain, file);
        Path gz = dir.resolve("flows.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(file);
        }

        assertThat(FlowInput.kind(plain)).isEqualTo(FlowInput.Kind.IPFIX_FILE);
        assertThat(FlowInput.kind(gz)).isEqualTo(FlowInput.Kind.IPFIX_FILE);
        FlowInput.Result r = FlowInput.replay(gz, "audit", records::add);
        assertThat(r.problems()).isEmpty();
        assertThat(r.packets()).isEqualTo(10);
        assertThat(records).singleElement().satisfies(f -> assertThat(f.iface()).isEqualTo(gz.toString()));
    }

    private ReadResult read(byte[] file) throws IOException {
        return IpfixFileReader.read("t.ipfix", new ByteArrayInputStream(file), "audit", "audit-t.ipfix",
                records::add);
    }

    /** Template 256: sourceIPv4Address, destinationIPv4Address, ports, protocol, tcpControlBits, octets, packets. */
    private static byte[] template() {
        int[] fields = {8, 4, 12, 4, 7, 2, 11, 2, 4, 1, 6, 1, 1, 8, 2, 8, 152, 8, 153, 8};
        ByteBuffer b = ByteBuffer.allocate(8 + fields.length * 2);
        b.putShort((short) 2).putShort((short) b.capacity()).putShort((short) 256)
                .putShort((short) (fields.length / 2));
        for (int f : fields) {
            b.putShort((short) f);
        }
        return b.array();
    }

    private static byte[] data(String src, String dst, int srcPort, int dstPort, long bytes, long packets,
            int flags) {
        ByteBuffer b = ByteBuffer.allocate(4 + 4 + 4 + 2 + 2 + 1 + 1 + 8 + 8 + 8 + 8);
        b.putShort((short) 256).putShort((short) b.capacity()).put(ip(src)).put(ip(dst)).putShort((short) srcPort)
                .putShort((short) dstPort).put((byte) 6).put((byte) flags).putLong(bytes).putLong(packets)
                .putLong(SECS * 1000).putLong(SECS * 1000 + 500);
        return b.array();
    }

    /** An IPFIX message of {@code sets}, exported at {@link #SECS}. */
    private static byte[] message(long sequence, long domain, byte[]... sets) {
        byte[] body = cat(sets);
        ByteBuffer b = ByteBuffer.allocate(16 + body.length);
        b.putShort((short) 10).putShort((short) b.capacity()).putInt((int) SECS).putInt((int) sequence)
                .putInt((int) domain).put(body);
        return b.array();
    }

    private static byte[] ip(String dotted) {
        byte[] a = new byte[4];
        String[] parts = dotted.split("\\.");
        for (int i = 0; i < 4; i++) {
            a[i] = (byte) Integer.parseInt(parts[i]);
        }
        return a;
    }

    private static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
