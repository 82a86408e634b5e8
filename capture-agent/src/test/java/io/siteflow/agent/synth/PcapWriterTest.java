package io.siteflow.agent.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.agent.capture.file.CaptureFileReader;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
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
    void projectReaderReadsWhatTheWriterWrote() throws Exception {
        Path f = dir.resolve("two.pcap");
        byte[] syn = Frames.tcp(Endpoint.of("10.2.0.20", 40112), Endpoint.of("10.1.0.10", 1521), 7,
                new Frames.TcpHeader(1, 0, Frames.SYN, 1000), new byte[0], 0, 0);
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Resolution.NANOS, 38)) {
            w.write(1_000_000_001L, syn);
            w.write(2_000_000_002L, syn);
        }
        List<String> seen = new ArrayList<>();
        try (CaptureFileReader r = CaptureFileReader.open(f)) {
            r.run((ts, linkType, data, offset, capLen, wireLen) ->
                    seen.add(ts + "/" + linkType + "/" + capLen + "/" + wireLen));
        }
        assertThat(seen).containsExactly("1000000001/1/38/54", "2000000002/1/38/54");
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
