package io.siteflow.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PcapWriterTest {
    @TempDir
    Path dir;

    @Test
    void writesLittleEndianHeaderAndRecordWithMicroseconds() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(bytes, PcapWriter.Resolution.MICROS, 65535)) {
            w.write(1_764_000_000_123_456_789L, new byte[] {1, 2, 3});
        }
        assertThat(HexFormat.of().formatHex(bytes.toByteArray())).isEqualTo(
                "d4c3b2a1" + "0200" + "0400" + "00000000" + "00000000" + "ffff0000" + "01000000"
                + "00812469" + "40e20100" + "03000000" + "03000000" + "010203");
    }

    @Test
    void nanosecondFileKeepsNanosecondsAndSnaplenCutsCapturedBytesOnly() throws Exception {
        Path f = dir.resolve("cut.pcap");
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Resolution.NANOS, 4)) {
            w.write(1_764_000_000_123_456_789L, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
            assertThat(w.packets()).isEqualTo(1);
            assertThat(w.bytesWritten()).isEqualTo(24 + 16 + 4);
        }
        byte[] all = Files.readAllBytes(f);
        assertThat(HexFormat.of().formatHex(all, 0, 4)).isEqualTo("4d3cb2a1");
        assertThat(HexFormat.of().formatHex(all, 24, all.length))
                .isEqualTo("00812469" + "15cd5b07" + "04000000" + "0a000000" + "01020304");
    }

    @Test
    void pcapngHasASectionOneInterfaceAndPaddedEnhancedPacketBlocks() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(bytes, PcapWriter.Format.PCAPNG, PcapWriter.Resolution.MICROS, 2)) {
            w.write(1_764_000_000_123_456_789L, new byte[] {1, 2, 3});
            assertThat(w.bytesWritten()).isEqualTo(28 + 20 + 36);
        }
        assertThat(HexFormat.of().formatHex(bytes.toByteArray())).isEqualTo(
                "0a0d0d0a" + "1c000000" + "4d3c2b1a" + "0100" + "0000" + "ffffffffffffffff" + "1c000000"
                + "01000000" + "14000000" + "0100" + "0000" + "02000000" + "14000000"
                + "06000000" + "24000000" + "00000000" + "59440600" + "40226441" + "02000000" + "03000000"
                + "01020000" + "24000000");
    }

    @Test
    void pcapngWithNanosecondsSaysSoInTheInterface() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(bytes, PcapWriter.Format.PCAPNG, PcapWriter.Resolution.NANOS, 100)) {
            assertThat(w.bytesWritten()).isEqualTo(28 + 32);
        }
        assertThat(HexFormat.of().formatHex(bytes.toByteArray(), 28, 60)).isEqualTo(
                "01000000" + "20000000" + "0100" + "0000" + "64000000" + "0900" + "0100" + "09000000" + "00000000"
                + "20000000");
    }

    @Test
    void rejectsSnaplenOutOfRangeAndNegativeTime() throws Exception {
        assertThatThrownBy(() -> new PcapWriter(new ByteArrayOutputStream(), PcapWriter.Resolution.MICROS, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("snaplen 0 is not in 1-262144");
        try (PcapWriter w = new PcapWriter(new ByteArrayOutputStream(), PcapWriter.Resolution.MICROS, 100)) {
            assertThatThrownBy(() -> w.write(-1, new byte[1]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("timestamp -1 is before 1970");
        }
    }
}
