package io.siteflow.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TcpConversationTest {
    private static final Endpoint WLS3 = Endpoint.of("10.2.0.20", 40112);
    private static final Endpoint DB1 = Endpoint.of("10.1.0.10", 1521);
    private static final long T0 = 1_764_000_000_000_000_000L;
    private static final long US = 1000;

    /** "time-µs-after-T0 src-port flags seq ack payload" of a frame built by {@link Frames}. */
    private static String describe(TimedFrame f) {
        byte[] b = f.frame();
        int tcp = 34;
        long seq = u32(b, tcp + 4);
        long ack = u32(b, tcp + 8);
        int flags = b[tcp + 13] & 0xFF;
        int header = (b[tcp + 12] >> 4 & 0xF) * 4;
        int payload = b.length - tcp - header;
        return (f.tsNanos() - T0) / US + " " + u16(b, tcp) + " " + flagNames(flags) + " " + seq + " " + ack + " " + payload;
    }

    private static String flagNames(int flags) {
        StringBuilder sb = new StringBuilder();
        String[] names = {"F", "S", "R", "P", "A"};
        for (int i = 0; i < names.length; i++) {
            if ((flags & 1 << i) != 0) {
                sb.append(names[i]);
            }
        }
        return sb.toString();
    }

    private static long u32(byte[] b, int at) {
        return ((long) u16(b, at) << 16) | u16(b, at + 2);
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF);
    }

    private static List<String> described(TcpConversation c) {
        return c.frames().stream().map(TcpConversationTest::describe).toList();
    }

    @Test
    void handshakeRttIsTwiceTheSumOfBothPathDelays() {
        TcpConversation c = TcpConversation.between(WLS3, DB1).delays(100 * US, 3250 * US).isn(1000, 5000)
                .build().connect(T0);

        assertThat(described(c)).containsExactly(
                "0 40112 S 1000 0 0",
                "6500 1521 SA 5000 1001 0",
                "6700 40112 A 1001 5001 0");
        assertThat(c.handshakeRttMicros()).isEqualTo(6700);
        assertThat(c.ready()).isEqualTo(T0 + 6700 * US);
    }

    @Test
    void exchangeSplitsIntoMssSegmentsAndAcksEverySecondAndTheLast() {
        TcpConversation c = TcpConversation.between(WLS3, DB1).delays(0, 3250 * US).isn(1000, 5000)
                .segmentGapNanos(10 * US).build().connect(T0);

        c.exchange(T0 + 10_000 * US, true, new byte[3000], new byte[1500], 200 * US);

        assertThat(described(c)).containsExactly(
                "0 40112 S 1000 0 0",
                "6500 1521 SA 5000 1001 0",
                "6500 40112 A 1001 5001 0",
                "10000 40112 A 1001 5001 1460",
                "10010 40112 A 2461 5001 1460",
                "10020 40112 PA 3921 5001 80",
                "16510 1521 A 5001 3921 0",
                "16720 1521 A 5001 4001 1460",
                "16730 1521 PA 6461 4001 40",
                "16730 40112 A 4001 6501 0");
        assertThat(c.fromClient().packets()).isEqualTo(6);
        assertThat(c.fromClient().ipBytes()).isEqualTo(48 + 5 * 40 + 3000);
        assertThat(c.fromServer().ipBytes()).isEqualTo(48 + 40 * 3 + 1500);
        assertThat(c.fromServer().frameBytes()).isEqualTo(c.fromServer().ipBytes() + 4 * 14);
    }

    @Test
    void emptyResponseIsAnsweredByAPureAckAndTheCloseTakesOneSequenceNumberEachWay() {
        TcpConversation c = TcpConversation.between(WLS3, DB1).delays(50 * US, 100 * US).isn(1, 2)
                .build().established(T0);

        c.exchange(T0, false, new byte[10], new byte[0], 0).close(T0, true);

        assertThat(described(c)).containsExactly(
                "0 1521 PA 2 1 10",
                "100 40112 A 1 12 0",
                "100 40112 FA 1 12 0",
                "300 1521 FA 12 2 0",
                "400 40112 A 2 13 0");
        assertThat(c.handshakeRttMicros()).isEqualTo(-1);
    }

    @Test
    void sequenceNumbersWrapModulo2To32() {
        TcpConversation c = TcpConversation.between(WLS3, DB1).isn(0xFFFF_FFF0L, 0xFFFF_FFFFL).build().connect(T0);

        c.exchange(T0, true, new byte[100], new byte[10], 0);

        assertThat(c.clientSeq()).isEqualTo(0x55);
        assertThat(c.serverSeq()).isEqualTo(10);
        assertThat(described(c).get(1)).isEqualTo("0 1521 SA 4294967295 4294967281 0");
        assertThat(described(c).get(4)).isEqualTo("0 1521 PA 0 85 10");
    }

    @Test
    void refusesAnExchangeBeforeTheConnectionIsOpen() {
        TcpConversation c = TcpConversation.between(WLS3, DB1).build();

        assertThatThrownBy(() -> c.exchange(T0, true, new byte[1], new byte[1], 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("exchange: connection 10.2.0.20:40112 -> 10.1.0.10:1521 is NEW");
    }
}
