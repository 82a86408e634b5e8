package io.siteflow.agent.capture.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The TPACKET_V3 ring's block size for a buffer and snaplen, and the {@code --capture-api} words. */
class RingGeometryTest {
    @Test
    void usesBlocksOfOneMebibyteForTheDefaultBuffer() {
        assertThat(RingSocket.blockSize(64 << 20, 256)).isEqualTo(1 << 20);
        assertThat(RingSocket.blockSize(8 << 20, 256)).isEqualTo(1 << 20);
    }

    @Test
    void halvesTheBlocksUntilASmallBufferHoldsEight() {
        assertThat(RingSocket.blockSize(4 << 20, 256)).isEqualTo(512 << 10);
        assertThat(RingSocket.blockSize(65_536, 256)).isEqualTo(8_192);
    }

    @Test
    void neverGoesUnderAPageOrUnderRoomForOneSnaplenPacket() {
        assertThat(RingSocket.blockSize(65_536, 64)).isEqualTo(8_192);
        assertThat(RingSocket.blockSize(65_536, 4_000)).isEqualTo(8_192);
        assertThat(RingSocket.blockSize(65_536, 9_000)).isEqualTo(16_384);
        assertThat(RingSocket.blockSize(2 << 20, 262_144)).isEqualTo(512 << 10);
    }

    @Test
    void readsTheCaptureApiWordsAndNamesTheChoicesOtherwise() {
        assertThat(LiveReader.parse("ring")).isEqualTo(LiveReader.RING);
        assertThat(LiveReader.parse("libpcap")).isEqualTo(LiveReader.LIBPCAP);
        assertThatThrownBy(() -> LiveReader.parse("pcap")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--capture-api pcap: must be ring or libpcap");
    }
}
