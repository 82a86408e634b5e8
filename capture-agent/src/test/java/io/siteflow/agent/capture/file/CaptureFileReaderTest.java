package io.siteflow.agent.capture.file;

import static io.siteflow.agent.capture.file.TestCaptures.data;
import static io.siteflow.agent.capture.file.TestCaptures.gzip;
import static io.siteflow.agent.capture.file.TestCaptures.pcap;
import static io.siteflow.agent.capture.file.TestCaptures.write;
import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.file.RecordingHandler.Seen;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureFileReaderTest {
    @TempDir
    Path dir;

    private static List<Seen> readAll(Path file, int bufferSize) throws Exception {
        RecordingHandler handler = new RecordingHandler();
        try (CaptureFileReader reader = CaptureFileReader.open(file, bufferSize)) {
            reader.run(handler);
        }
        return handler.seen;
    }

    @Test
    void readsLittleEndianMicrosecondPcap() throws Exception {
        Path file = pcap(LITTLE_ENDIAN, false, 1)
                .packet(1_764_000_000L, 123_456, data(60, 0), 60)
                .packet(1_764_000_001L, 999_999, data(1514, 7), 1514)
                .writeTo(dir.resolve("le.pcap"));

        assertThat(readAll(file, CaptureFileReader.DEFAULT_BUFFER_SIZE)).containsExactly(
                new Seen(1_764_000_000_123_456_000L, 1, data(60, 0), 60),
                new Seen(1_764_000_001_999_999_000L, 1, data(1514, 7), 1514));
    }

    @Test
    void readsBigEndianNanosecondPcap() throws Exception {
        Path file = pcap(BIG_ENDIAN, true, 113)
                .packet(1_764_000_000L, 123_456_789, data(44, 3), 44)
                .writeTo(dir.resolve("be-ns.pcap"));

        assertThat(readAll(file, CaptureFileReader.DEFAULT_BUFFER_SIZE))
                .containsExactly(new Seen(1_764_000_000_123_456_789L, 113, data(44, 3), 44));
    }

    @Test
    void readsSecondsPast2038And2106AsUnsigned() throws Exception {
        Path file = pcap(LITTLE_ENDIAN, false, 1)
                .packet(0x8000_0000L, 1, data(20, 0), 20)
                .packet(0xFFFF_FFFFL, 999_999, data(20, 0), 20)
                .writeTo(dir.resolve("future.pcap"));

        assertThat(readAll(file, 1024)).extracting(Seen::timestampNanos)
                .containsExactly(2_147_483_648_000_001_000L, 4_294_967_295_999_999_000L);
    }

    @Test
    void deliversCapturedLengthLargerThanWireLengthAsIs() throws Exception {
        Path file = pcap(LITTLE_ENDIAN, false, 1).packet(1, 0, data(64, 0), 60).writeTo(dir.resolve("pad.pcap"));

        assertThat(readAll(file, 1024)).containsExactly(new Seen(1_000_000_000L, 1, data(64, 0), 60));
    }

    @Test
    void takesLinkTypeFromLow16BitsWhenFcsBitsAreSet() throws Exception {
        Path fcs = pcap(BIG_ENDIAN, false, 0x3000_0084).packet(1, 0, data(8, 0), 8).writeTo(dir.resolve("fcs.pcap"));
        Path flag = pcap(LITTLE_ENDIAN, false, 0x0400_0001).packet(1, 0, data(8, 0), 8).writeTo(dir.resolve("f.pcap"));

        assertThat(readAll(fcs, 1024)).extracting(Seen::linkType).containsExactly(132);
        assertThat(readAll(flag, 1024)).extracting(Seen::linkType).containsExactly(1);
    }

    @Test
    void readsRecordsThatStraddleOrExceedTheBuffer() throws Exception {
        TestCaptures.Pcap pcap = pcap(LITTLE_ENDIAN, true, 1);
        List<Seen> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            int length = (i * 37) % 301;
            pcap.packet(i, i, data(length, i), length + 4);
            expected.add(new Seen(i * 1_000_000_001L, 1, data(length, i), length + 4));
        }
        Path file = pcap.writeTo(dir.resolve("straddle.pcap"));

        assertThat(readAll(file, 64)).containsExactlyElementsOf(expected);
        assertThat(readAll(file, 100)).containsExactlyElementsOf(expected);
    }

    @Test
    void readsGzipCompressedPcapAndPcapng() throws Exception {
        byte[] pcap = pcap(BIG_ENDIAN, false, 1).packet(5, 6, data(100, 1), 100).packet(7, 8, data(90, 2), 90).bytes();
        byte[] pcapng = TestCaptures.pcapng(LITTLE_ENDIAN).idb(101, 0).epb(0, 42, data(30, 3), 30).bytes();
        Path gzPcap = write(dir.resolve("a.pcap.gz"), gzip(pcap));
        Path gzPcapng = write(dir.resolve("b.pcapng.gz"), gzip(pcapng));

        assertThat(readAll(gzPcap, 64)).containsExactly(
                new Seen(5_000_006_000L, 1, data(100, 1), 100), new Seen(7_000_008_000L, 1, data(90, 2), 90));
        assertThat(readAll(gzPcapng, 64)).containsExactly(new Seen(42_000L, 101, data(30, 3), 30));
    }

    @Test
    void stopEndsRunAfterTheCurrentPacket() throws Exception {
        Path file = pcap(LITTLE_ENDIAN, false, 1).packet(1, 0, data(10, 0), 10).packet(2, 0, data(10, 0), 10)
                .packet(3, 0, data(10, 0), 10).writeTo(dir.resolve("three.pcap"));
        List<Long> times = new ArrayList<>();
        try (CaptureFileReader reader = CaptureFileReader.open(file)) {
            reader.run((ts, link, data, offset, cap, wire) -> {
                times.add(ts);
                if (times.size() == 2) {
                    reader.stop();
                }
            });

            assertThat(times).containsExactly(1_000_000_000L, 2_000_000_000L);
            assertThat(reader.stats()).isEqualTo(new CaptureStats(2, 0, 0));
        }
    }

    @Test
    void reportsFileNameAndCountOfDeliveredPackets() throws Exception {
        Path file = pcap(LITTLE_ENDIAN, false, 1).packet(1, 0, data(10, 0), 10).packet(2, 0, data(10, 0), 10)
                .writeTo(dir.resolve("two.pcap"));
        try (CaptureFileReader reader = CaptureFileReader.open(file)) {
            assertThat(reader.name()).isEqualTo("two.pcap");
            assertThat(reader.stats()).isEqualTo(new CaptureStats(0, 0, 0));
            reader.run((ts, link, data, offset, cap, wire) -> { });
            assertThat(reader.stats()).isEqualTo(new CaptureStats(2, 0, 0));
        }
    }

    @Test
    void readsHeaderOnlyFileAsNoPackets() throws Exception {
        Path file = pcap(LITTLE_ENDIAN, false, 1).writeTo(dir.resolve("empty.pcap"));

        assertThat(readAll(file, 1024)).isEmpty();
    }

    @Test
    void refusesASecondRun() throws Exception {
        Path file = pcap(LITTLE_ENDIAN, false, 1).writeTo(dir.resolve("once.pcap"));
        try (CaptureFileReader reader = CaptureFileReader.open(file)) {
            reader.run((ts, link, data, offset, cap, wire) -> { });

            assertThatThrownBy(() -> reader.run((ts, link, data, offset, cap, wire) -> { }))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(file + ": run() may only be called once");
        }
    }

    @Test
    void deliversNothingWhenStoppedBeforeRunning() throws Exception {
        Path file = pcap(LITTLE_ENDIAN, false, 1).packet(1, 0, data(10, 0), 10).writeTo(dir.resolve("stopped.pcap"));
        RecordingHandler handler = new RecordingHandler();
        try (CaptureFileReader reader = CaptureFileReader.open(file)) {
            reader.stop();
            reader.run(handler);

            assertThat(handler.seen).isEmpty();
            assertThat(reader.stats()).isEqualTo(new CaptureStats(0, 0, 0));
        }
    }
}
