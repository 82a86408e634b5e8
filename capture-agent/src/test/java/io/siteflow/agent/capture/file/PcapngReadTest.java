package io.siteflow.agent.capture.file;

import static io.siteflow.agent.capture.file.TestCaptures.data;
import static io.siteflow.agent.capture.file.TestCaptures.int64;
import static io.siteflow.agent.capture.file.TestCaptures.pcapng;
import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.file.RecordingHandler.Seen;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PcapngReadTest {
    private static final int ETHERNET = 1;
    private static final int RAW = 101;
    private static final int SLL = 113;
    private static final int IF_TSRESOL = 9;
    private static final int IF_TSOFFSET = 14;
    private static final int COMMENT = 1;

    @TempDir
    Path dir;

    private List<Seen> read(TestCaptures.Pcapng capture, int bufferSize) throws Exception {
        Path file = capture.writeTo(dir.resolve("t.pcapng"));
        RecordingHandler handler = new RecordingHandler();
        try (CaptureFileReader reader = CaptureFileReader.open(file, bufferSize)) {
            reader.run(handler);
        }
        return handler.seen;
    }

    @ParameterizedTest
    @ValueSource(strings = {"LITTLE_ENDIAN", "BIG_ENDIAN"})
    void givesEachPacketTheLinkTypeOfItsInterface(String order) throws Exception {
        ByteOrder byteOrder = order.equals("BIG_ENDIAN") ? BIG_ENDIAN : LITTLE_ENDIAN;
        TestCaptures.Pcapng capture = pcapng(byteOrder).idb(ETHERNET, 0).idb(RAW, 0).idb(SLL, 0)
                .epb(2, 1_000_001L, data(44, 1), 44)
                .epb(0, 1_000_002L, data(60, 2), 64)
                .epb(1, 1_000_003L, data(20, 3), 1500);

        assertThat(read(capture, 1 << 16)).containsExactly(
                new Seen(1_000_001_000L, SLL, data(44, 1), 44),
                new Seen(1_000_002_000L, ETHERNET, data(60, 2), 64),
                new Seen(1_000_003_000L, RAW, data(20, 3), 1500));
    }

    @Test
    void appliesEachInterfacesTimestampResolutionAndOffset() throws Exception {
        TestCaptures.Pcapng capture = pcapng(LITTLE_ENDIAN)
                .idb(ETHERNET, 0, IF_TSRESOL, new byte[] {9})
                .idb(ETHERNET, 0, IF_TSRESOL, new byte[] {(byte) 0x94})
                .idb(ETHERNET, 0, IF_TSOFFSET, int64(1_700_000_000L, LITTLE_ENDIAN), IF_TSRESOL, new byte[] {3})
                .epb(0, 1_764_000_000_123_456_789L, data(10, 0), 10)
                .epb(1, (5L << 20) | (1L << 19), data(10, 0), 10)
                .epb(2, 2_500L, data(10, 0), 10);

        assertThat(read(capture, 1 << 16)).extracting(Seen::timestampNanos).containsExactly(
                1_764_000_000_123_456_789L, 5_500_000_000L, 1_700_000_002_500_000_000L);
    }

    @Test
    void readsSimplePacketBlocksWithInterfaceZeroAndItsSnapLength() throws Exception {
        TestCaptures.Pcapng capture = pcapng(BIG_ENDIAN).idb(RAW, 64)
                .epb(0, 7_000_000L, data(30, 0), 30)
                .spb(data(64, 5), 100)
                .spb(data(40, 6), 40);

        assertThat(read(capture, 1 << 16)).containsExactly(
                new Seen(7_000_000_000L, RAW, data(30, 0), 30),
                new Seen(7_000_000_000L, RAW, data(64, 5), 100),
                new Seen(7_000_000_000L, RAW, data(40, 6), 40));
    }

    @Test
    void readsObsoletePacketBlocks() throws Exception {
        TestCaptures.Pcapng capture = pcapng(LITTLE_ENDIAN).idb(ETHERNET, 0).idb(SLL, 0).pb(1, 3_000_000L, data(50, 9), 70);

        assertThat(read(capture, 1 << 16)).containsExactly(new Seen(3_000_000_000L, SLL, data(50, 9), 70));
    }

    @Test
    void skipsBlocksThatCarryNoPackets() throws Exception {
        TestCaptures.Pcapng capture = pcapng(LITTLE_ENDIAN)
                .block(4, data(17, 0))
                .idb(ETHERNET, 0)
                .block(5, data(24, 0))
                .epb(0, 1L, data(12, 1), 12)
                .block(0x0000000A, data(3, 0))
                .block(0x40000BAD, data(301, 0))
                .epb(0, 2L, data(13, 2), 13);

        assertThat(read(capture, 64)).extracting(Seen::timestampNanos).containsExactly(1_000L, 2_000L);
    }

    @Test
    void startsOverWithEachSection() throws Exception {
        TestCaptures.Pcapng capture = pcapng(LITTLE_ENDIAN).idb(ETHERNET, 0).epb(0, 1L, data(10, 1), 10)
                .section(BIG_ENDIAN, 1, 0).idb(SLL, 0, IF_TSRESOL, new byte[] {9}).epb(0, 2L, data(11, 2), 11);

        assertThat(read(capture, 1 << 16)).containsExactly(
                new Seen(1_000L, ETHERNET, data(10, 1), 10), new Seen(2L, SLL, data(11, 2), 11));
    }

    @Test
    void acceptsPacketOptionsThatFitTheBlock() throws Exception {
        byte[] comment = "hello".getBytes(StandardCharsets.US_ASCII);
        TestCaptures.Pcapng capture = pcapng(LITTLE_ENDIAN)
                .idb(ETHERNET, 0, COMMENT, comment)
                .epb(0, 1L, data(10, 1), 10);

        assertThat(read(capture, 1 << 16)).containsExactly(new Seen(1_000L, ETHERNET, data(10, 1), 10));
    }

    @Test
    void readsBlocksThatStraddleTheBuffer() throws Exception {
        TestCaptures.Pcapng capture = pcapng(BIG_ENDIAN).idb(ETHERNET, 0);
        for (int i = 0; i < 40; i++) {
            capture.epb(0, i, data(i * 13, i), i * 13 + 1);
        }
        List<Seen> seen = read(capture, 48);

        assertThat(seen).hasSize(40);
        for (int i = 0; i < 40; i++) {
            assertThat(seen.get(i)).isEqualTo(new Seen(i * 1_000L, ETHERNET, data(i * 13, i), i * 13 + 1));
        }
    }
}
