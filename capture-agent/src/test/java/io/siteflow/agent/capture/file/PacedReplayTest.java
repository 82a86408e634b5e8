package io.siteflow.agent.capture.file;

import static io.siteflow.agent.capture.file.TestCaptures.data;
import static io.siteflow.agent.capture.file.TestCaptures.pcap;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PacedReplayTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** Three packets 0, 2 and 5 ms into the file (raw IP). */
    private Path threePackets() {
        return pcap(LITTLE_ENDIAN, false, 101).packet(100, 0, data(40, 1), 40).packet(100, 2_000, data(40, 2), 40)
                .packet(100, 5_000, data(40, 3), 40).writeTo(dir.resolve("three.pcap"));
    }

    @Test
    void handsOverTheSamePacketsEveryPassAboutASecondAfterThePreviousOne() throws Exception {
        RecordingHandler handler = new RecordingHandler();
        PacedReplay replay = new PacedReplay(threePackets(), 3, () -> System.currentTimeMillis() * MS);

        replay.run(handler);

        List<RecordingHandler.Seen> seen = handler.seen;
        assertThat(seen).hasSize(9);
        assertThat(replay.stats().received()).isEqualTo(9);
        for (int pass = 0; pass < 3; pass++) {
            long first = seen.get(3 * pass).timestampNanos();
            assertThat(seen.get(3 * pass).data()).isEqualTo(data(40, 1));
            assertThat(seen.get(3 * pass + 2).data()).isEqualTo(data(40, 3));
            assertThat(seen.get(3 * pass + 1).timestampNanos() - first).isEqualTo(2 * MS);
            assertThat(seen.get(3 * pass + 2).timestampNanos() - first).isEqualTo(5 * MS);
            if (pass > 0) {
                assertThat(first - seen.get(3 * pass - 1).timestampNanos()).isGreaterThanOrEqualTo(999 * MS);
            }
        }
    }

    @Test
    void onePassReadsTheFileOnceAndNegativePassesAreRefused() throws Exception {
        RecordingHandler handler = new RecordingHandler();

        new PacedReplay(threePackets(), 1, () -> System.currentTimeMillis() * MS).run(handler);

        assertThat(handler.seen).hasSize(3);
        assertThatThrownBy(() -> new PacedReplay(threePackets(), -1, System::nanoTime))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("passes must not be negative: -1");
    }
}
