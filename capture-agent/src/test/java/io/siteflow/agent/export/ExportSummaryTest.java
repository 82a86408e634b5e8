package io.siteflow.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.wire.Heartbeat;
import org.junit.jupiter.api.Test;

/** The collector's end-of-run words and heartbeat counters, from its counters alone. */
class ExportSummaryTest {

    /** 7 datagrams decoded (one malformed), 3 dropped by a full pool, 2 refused; records and loss in their units. */
    private static ExportCounters counters() {
        ExportCounters c = new ExportCounters();
        for (int i = 0; i < 7; i++) {
            c.datagram();
        }
        for (int i = 0; i < 3; i++) {
            c.drop("datagram of 1464 bytes from exporter 127.0.0.1 dropped: the receive pool is full");
        }
        c.refuse();
        c.refuse();
        for (int i = 0; i < 180; i++) {
            c.record();
        }
        c.lostRecords(30);
        c.lostPackets(1);
        c.sflowLostDatagrams(2);
        c.malformed(Malformed.BAD_SET_LENGTH, "exporter 127.0.0.1: set at offset 20 runs past the datagram");
        return c;
    }

    @Test
    void namesTheDatagramsThePoolDroppedAndWhyAsTheRunsLoss() {
        assertThat(ExportSummary.losses(counters(), DatagramPool.MIN_CAPACITY)).containsExactly("3 of 10 datagrams "
                + "lost: dropped because the receive pool (65552 bytes, --receive-buffer-mb) was full (decoding fell "
                + "behind); their flow records were not written");
        assertThat(ExportSummary.losses(counters(), 128 << 20)).singleElement().asString()
                .contains("the receive pool (128 MiB, --receive-buffer-mb)");
    }

    @Test
    void lossBetweenExporterAndCollectorIsNotTheCollectorsLoss() {
        ExportCounters c = new ExportCounters();
        c.datagram();
        c.lostRecords(30);
        c.lostPackets(1);
        c.sflowLostDatagrams(2);

        assertThat(ExportSummary.losses(c, DatagramPool.MIN_CAPACITY)).isEmpty();
    }

    @Test
    void theHeartbeatCountsADroppedDatagramAsReceivedAndMalformed() {
        assertThat(ExportSummary.heartbeat(counters())).isEqualTo(new Heartbeat.Export(10, 180, 30, 1, 0, 2, 4, 2));
    }
}
