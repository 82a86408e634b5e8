package io.siteflow.agent.capture.file;

import static io.siteflow.agent.capture.file.TestCaptures.data;
import static io.siteflow.agent.capture.file.TestCaptures.gzip;
import static io.siteflow.agent.capture.file.TestCaptures.pcap;
import static io.siteflow.agent.capture.file.TestCaptures.pcapng;
import static io.siteflow.agent.capture.file.TestCaptures.write;
import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.CaptureFileException.Kind;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.file.RecordingHandler.Seen;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every kind of unreadable file: the exact message and offset, and the packets delivered before. */
class CaptureFileErrorTest {
    @TempDir
    Path dir;

    /** Three good µs records (76 bytes each, ending at byte 252), so the standard record layout is chosen. */
    private static TestCaptures.Pcap threeGoodPackets() {
        return pcap(LITTLE_ENDIAN, false, 1).packet(1, 0, data(60, 1), 60).packet(2, 0, data(60, 2), 60)
                .packet(3, 0, data(60, 3), 60);
    }

    private static final List<Seen> THREE = List.of(new Seen(1_000_000_000L, 1, data(60, 1), 60),
            new Seen(2_000_000_000L, 1, data(60, 2), 60), new Seen(3_000_000_000L, 1, data(60, 3), 60));

    static void assertOpenFails(Path file, Kind kind, long offset, String message) {
        CaptureFileException e = catchThrowableOfType(CaptureFileException.class, () -> CaptureFileReader.open(file));
        assertThat(e).as("open must fail").isNotNull();
        assertThat(e.getMessage()).isEqualTo(message);
        assertThat(e.kind()).isEqualTo(kind);
        assertThat(e.offset()).isEqualTo(offset);
        assertThat(e.file()).isEqualTo(file);
    }

    /** Runs the reader and checks the error and the packets delivered before it. */
    static RecordingHandler assertRunFails(Path file, Kind kind, long offset, String message) throws Exception {
        RecordingHandler handler = new RecordingHandler();
        try (CaptureFileReader reader = CaptureFileReader.open(file, 64)) {
            CaptureFileException e = catchThrowableOfType(CaptureFileException.class, () -> reader.run(handler));
            assertThat(e).as("run must fail").isNotNull();
            assertThat(e.getMessage()).isEqualTo(message);
            assertThat(e.kind()).isEqualTo(kind);
            assertThat(e.offset()).isEqualTo(offset);
            assertThat(reader.stats()).isEqualTo(new CaptureStats(handler.seen.size(), 0, 0));
        }
        return handler;
    }

    @Test
    void reportsAMissingFileOrADirectory() {
        Path missing = dir.resolve("nope.pcap");
        assertOpenFails(missing, Kind.NOT_FOUND, -1, missing + ": no such file");
        assertOpenFails(dir, Kind.NOT_FOUND, -1, dir + ": is a directory");
    }

    @Test
    void rejectsEmptyShortAndForeignFiles() {
        Path empty = write(dir.resolve("empty.pcap"), new byte[0]);
        Path three = write(dir.resolve("three.pcap"), new byte[] {(byte) 0xD4, (byte) 0xC3, (byte) 0xB2});
        Path shortPcap = write(dir.resolve("short.pcap"), Arrays.copyOf(threeGoodPackets().bytes(), 10));
        Path shortPcapng = write(dir.resolve("short.pcapng"), Arrays.copyOf(pcapng(LITTLE_ENDIAN).bytes(), 20));
        Path elf = write(dir.resolve("a.out"), new byte[] {0x7F, 'E', 'L', 'F', 2, 1, 1, 0});

        assertOpenFails(empty, Kind.NOT_A_CAPTURE, 0, empty + ": empty file");
        assertOpenFails(three, Kind.NOT_A_CAPTURE, 0, three + ": 3 bytes, too short for a capture file header");
        assertOpenFails(shortPcap, Kind.NOT_A_CAPTURE, 0,
                shortPcap + ": 10 bytes, too short for a pcap file header (24 bytes)");
        assertOpenFails(shortPcapng, Kind.NOT_A_CAPTURE, 0,
                shortPcapng + ": 20 bytes, too short for a pcapng section header block (28 bytes)");
        assertOpenFails(elf, Kind.NOT_A_CAPTURE, 0,
                elf + ": not a pcap, pcapng or gzip-compressed capture (starts with 0x7f454c46)");
    }

    @Test
    void rejectsUnsupportedPcapHeaders() {
        Path version1 = new TestCaptures.Pcap(BIG_ENDIAN, 0xA1B2C3D4, 1, 4, 1).writeTo(dir.resolve("v1.pcap"));
        Path reserved = pcap(LITTLE_ENDIAN, false, 0x0030_0000).writeTo(dir.resolve("reserved.pcap"));
        Path modified = new TestCaptures.Pcap(LITTLE_ENDIAN, 0xA1B2CD34, 2, 4, 1).writeTo(dir.resolve("kuznetzov.pcap"));

        assertOpenFails(version1, Kind.UNSUPPORTED, 4,
                version1 + ": at byte 4: pcap version 1.4 is not supported (only 2.x and later)");
        assertOpenFails(reserved, Kind.UNSUPPORTED, 20,
                reserved + ": at byte 20: link-type field 0x00300000 has reserved bits set");
        assertOpenFails(modified, Kind.UNSUPPORTED, 0,
                modified + ": at byte 0: modified (Kuznetzov) pcap, magic a1b2cd34, is not supported");
    }

    @Test
    void rejectsUnsupportedPcapngHeaders() {
        Path v11 = new TestCaptures.Pcapng().section(LITTLE_ENDIAN, 1, 1).writeTo(dir.resolve("v11.pcapng"));
        Path v01 = new TestCaptures.Pcapng().section(BIG_ENDIAN, 0, 1).writeTo(dir.resolve("v01.pcapng"));
        byte[] badOrder = pcapng(LITTLE_ENDIAN).bytes();
        badOrder[8] = 0x44;
        Path order = write(dir.resolve("order.pcapng"), badOrder);

        assertOpenFails(v11, Kind.UNSUPPORTED, 12, v11 + ": at byte 12: pcapng version 1.1 is not supported (only 1.0 and 1.2)");
        assertOpenFails(v01, Kind.UNSUPPORTED, 12, v01 + ": at byte 12: pcapng version 0.1 is not supported (only 1.0 and 1.2)");
        assertOpenFails(order, Kind.NOT_A_CAPTURE, 8,
                order + ": pcapng byte-order magic 0x443c2b1a is neither 1a2b3c4d nor 4d3c2b1a");
    }

    @Test
    void stopsAtAnOversizedPcapRecordAfterDeliveringThePacketsBefore() throws Exception {
        Path file = threeGoodPackets().int32(4).int32(0).int32(4_325_376).int32(4_325_376)
                .writeTo(dir.resolve("big.pcap"));

        RecordingHandler seen = assertRunFails(file, Kind.CORRUPT, 252, file
                + ": corrupt at byte 252: packet record of 4325376 captured bytes is bigger than the maximum of 262144");
        assertThat(seen.seen).containsExactlyElementsOf(THREE);
    }

    @Test
    void reportsAPcapCutShortInARecordOrItsHeader() throws Exception {
        Path inRecord = threeGoodPackets().int32(4).int32(0).int32(100).int32(100).raw(data(30, 0))
                .writeTo(dir.resolve("cut.pcap"));
        Path inHeader = threeGoodPackets().raw(data(5, 0)).writeTo(dir.resolve("cut-header.pcap"));

        assertThat(assertRunFails(inRecord, Kind.TRUNCATED, 252,
                inRecord + ": cut short at byte 252: packet record needs 116 bytes, 46 left").seen)
                .containsExactlyElementsOf(THREE);
        assertThat(assertRunFails(inHeader, Kind.TRUNCATED, 252,
                inHeader + ": cut short at byte 252: packet record header needs 16 bytes, 5 left").seen)
                .containsExactlyElementsOf(THREE);
    }

    @Test
    void reportsDamagedGzipAfterTheLastCompletePacket() throws Exception {
        byte[] compressed = gzip(threeGoodPackets().bytes());
        compressed[compressed.length - 8] ^= 0x55;
        Path file = write(dir.resolve("crc.pcap.gz"), compressed);

        assertThat(assertRunFails(file, Kind.CORRUPT, 252,
                file + ": corrupt at byte 252: gzip data is damaged (Corrupt GZIP trailer)").seen)
                .containsExactlyElementsOf(THREE);
    }

    @Test
    void reportsACutGzipStreamAtTheFirstIncompleteRecord() throws Exception {
        TestCaptures.Pcap pcap = pcap(BIG_ENDIAN, true, 1);
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20; i++) {
            byte[] noise = new byte[1000];
            random.nextBytes(noise);
            pcap.packet(i, 0, noise, 1000);
        }
        byte[] compressed = gzip(pcap.bytes());
        Path file = write(dir.resolve("cut.pcap.gz"), Arrays.copyOf(compressed, compressed.length / 2));
        RecordingHandler handler = new RecordingHandler();
        try (CaptureFileReader reader = CaptureFileReader.open(file, 4096)) {
            CaptureFileException e = catchThrowableOfType(CaptureFileException.class, () -> reader.run(handler));

            int delivered = handler.seen.size();
            assertThat(delivered).isBetween(5, 15);
            assertThat(e.kind()).isEqualTo(Kind.TRUNCATED);
            assertThat(e.offset()).isEqualTo(24 + 1016L * delivered);
            assertThat(e.getMessage()).isEqualTo(file + ": cut short at byte " + (24 + 1016L * delivered)
                    + ": gzip stream ends early (Unexpected end of ZLIB input stream)");
        }
    }

    @Test
    void reportsAReadErrorAfterDeliveringTheCompleteRecordsBeforeIt() throws Exception {
        byte[] bytes = threeGoodPackets().packet(4, 0, data(60, 4), 60).bytes();
        Path name = dir.resolve("disk.pcap");
        RecordingHandler handler = new RecordingHandler();
        try (CaptureFileReader reader = CaptureFileReader.open(name, new FailingChannel(bytes, 280), 1 << 16)) {
            CaptureFileException e = catchThrowableOfType(CaptureFileException.class, () -> reader.run(handler));

            assertThat(e.kind()).isEqualTo(Kind.IO);
            assertThat(e.offset()).isEqualTo(252);
            assertThat(e.getMessage()).isEqualTo(name + ": read error at byte 252: disk on fire");
            assertThat(handler.seen).containsExactlyElementsOf(THREE);
        }
    }

    /** Hands out the first {@code failAt} bytes, then fails every read. */
    private static final class FailingChannel implements ReadableByteChannel {
        private final byte[] bytes;
        private final int failAt;
        private int position;

        FailingChannel(byte[] bytes, int failAt) {
            this.bytes = bytes;
            this.failAt = failAt;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (position == failAt) {
                throw new IOException("disk on fire");
            }
            int n = Math.min(Math.min(dst.remaining(), 100), failAt - position);
            dst.put(bytes, position, n);
            position += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
