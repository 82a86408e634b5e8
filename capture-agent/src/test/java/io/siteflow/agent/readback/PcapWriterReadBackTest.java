package io.siteflow.agent.readback;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import io.siteflow.synth.PcapWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's capture file reader reads what traffic-synth's {@link PcapWriter} writes. */
class PcapWriterReadBackTest {
    @TempDir
    Path dir;

    private final byte[] syn = Frames.tcp(Endpoint.of("10.2.0.20", 40112), Endpoint.of("10.1.0.10", 1521), 7,
            new Frames.TcpHeader(1, 0, Frames.SYN, 1000), new byte[0], 0, 0);

    /** {@code ts/linkType/capLen/wireLen} of every record, as the agent's reader delivers them. */
    private static List<String> readBack(Path f) throws Exception {
        List<String> seen = new ArrayList<>();
        try (CaptureFileReader r = CaptureFileReader.open(f)) {
            r.run((ts, linkType, data, offset, capLen, wireLen) ->
                    seen.add(ts + "/" + linkType + "/" + capLen + "/" + wireLen));
        }
        return seen;
    }

    @Test
    void projectReaderReadsWhatTheWriterWrote() throws Exception {
        Path f = dir.resolve("two.pcap");
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Resolution.NANOS, 38)) {
            w.write(1_000_000_001L, syn);
            w.write(2_000_000_002L, syn);
        }
        assertThat(readBack(f)).containsExactly("1000000001/1/38/54", "2000000002/1/38/54");
    }

    @Test
    void projectReaderReadsPcapngWithNanosecondsAsWritten() throws Exception {
        Path f = dir.resolve("two.pcapng");
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Format.PCAPNG, PcapWriter.Resolution.NANOS, 37)) {
            w.write(1_000_000_001L, syn);
            w.write(2_000_000_002L, syn);
        }
        assertThat(readBack(f)).containsExactly("1000000001/1/37/54", "2000000002/1/37/54");
    }
}
