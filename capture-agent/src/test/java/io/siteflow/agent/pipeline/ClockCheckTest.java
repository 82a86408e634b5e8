package io.siteflow.agent.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.PacketHandler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 17 defect 0, agent side: packets dated in the future never reach a flow record. */
class ClockCheckTest {
    /** 2026-12-01T23:00:00Z. */
    private static final long HOST_MILLIS = 1_796_166_000_000L;
    private static final long HOST_NANOS = HOST_MILLIS * 1_000_000L;
    private static final long MINUTE = 60_000_000_000L;

    private final List<Long> passed = new ArrayList<>();
    private final PacketHandler downstream = (ts, lt, data, off, cap, wire) -> passed.add(ts);
    private final ClockCheck check = new ClockCheck(downstream, () -> HOST_MILLIS);

    private void offer(long ts) {
        check.onPacket(ts, 1, new byte[0], 0, 0, 0);
    }

    @Test
    void passesPacketsFromThePastAndUpToFiveMinutesAhead() {
        offer(HOST_NANOS - 365 * 24 * 60 * MINUTE);
        offer(HOST_NANOS);
        offer(HOST_NANOS + 5 * MINUTE);

        assertThat(passed).containsExactly(HOST_NANOS - 365 * 24 * 60 * MINUTE, HOST_NANOS, HOST_NANOS + 5 * MINUTE);
        assertThat(check.refused()).isZero();
        assertThat(check.problem("old.pcap")).isNull();
    }

    @Test
    void refusesPacketsDatedMoreThanFiveMinutesAheadAndSaysWhen() {
        offer(HOST_NANOS);
        offer(HOST_NANOS + 5 * MINUTE + 1);
        offer(HOST_NANOS + 90 * MINUTE);
        offer(HOST_NANOS + MINUTE);

        assertThat(passed).containsExactly(HOST_NANOS, HOST_NANOS + MINUTE);
        assertThat(check.refused()).isEqualTo(2);
        assertThat(check.problem("future.pcap")).isEqualTo("future.pcap: 2 packets dated more than 5 min ahead of "
                + "this host's clock were skipped (the first at 2026-12-01T23:05:00.000000001Z, 300 s ahead of "
                + "2026-12-01T23:00:00Z): the capture's clock is wrong");
    }

    @Test
    void namesASinglePacket() {
        offer(HOST_NANOS + 24 * 60 * MINUTE);

        assertThat(check.problem("eth0")).isEqualTo("eth0: 1 packet dated more than 5 min ahead of this host's "
                + "clock was skipped (the first at 2026-12-02T23:00:00Z, 86400 s ahead of 2026-12-01T23:00:00Z): "
                + "the capture's clock is wrong");
    }
}
