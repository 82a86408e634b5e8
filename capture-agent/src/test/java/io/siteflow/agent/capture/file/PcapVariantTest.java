package io.siteflow.agent.capture.file;

import static io.siteflow.agent.capture.file.TestCaptures.data;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.file.RecordingHandler.Seen;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Old pcap layouts that tshark still reads: guessed record headers and swapped lengths. */
class PcapVariantTest {
    @TempDir
    Path dir;

    private static List<Seen> read(Path file) throws Exception {
        RecordingHandler handler = new RecordingHandler();
        try (CaptureFileReader reader = CaptureFileReader.open(file)) {
            reader.run(handler);
        }
        return handler.seen;
    }

    @Test
    void readsRedHat61RecordHeadersWrittenWithTheStandardMagic() throws Exception {
        TestCaptures.Pcap pcap = TestCaptures.pcap(LITTLE_ENDIAN, false, 1);
        for (int i = 1; i <= 4; i++) {
            pcap.int32(1_764_000_000L + i).int32(i).int32(40).int32(60)
                    .int32(2).int16(0x0800).raw((byte) 0, (byte) 0)
                    .raw(data(40, i));
        }
        Path file = pcap.writeTo(dir.resolve("ss990417.pcap"));

        assertThat(read(file)).containsExactly(
                new Seen(1_764_000_001_000_001_000L, 1, data(40, 1), 60),
                new Seen(1_764_000_002_000_002_000L, 1, data(40, 2), 60),
                new Seen(1_764_000_003_000_003_000L, 1, data(40, 3), 60),
                new Seen(1_764_000_004_000_004_000L, 1, data(40, 4), 60));
    }

    @Test
    void swapsCapturedAndWireLengthsOfVersionsBefore2Point3() throws Exception {
        Path file = new TestCaptures.Pcap(LITTLE_ENDIAN, 0xA1B2C3D4, 2, 2, 1)
                .int32(1).int32(0).int32(1500).int32(20).raw(data(20, 0))
                .writeTo(dir.resolve("v22.pcap"));

        assertThat(read(file)).containsExactly(new Seen(1_000_000_000L, 1, data(20, 0), 1500));
    }

    @Test
    void swapsLengthsOfVersion2Point3OnlyWhenCapturedExceedsWire() throws Exception {
        Path file = new TestCaptures.Pcap(LITTLE_ENDIAN, 0xA1B2C3D4, 2, 3, 1)
                .int32(1).int32(0).int32(1500).int32(20).raw(data(20, 0))
                .int32(2).int32(0).int32(20).int32(1500).raw(data(20, 1))
                .writeTo(dir.resolve("v23.pcap"));

        assertThat(read(file)).containsExactly(
                new Seen(1_000_000_000L, 1, data(20, 0), 1500), new Seen(2_000_000_000L, 1, data(20, 1), 1500));
    }
}
