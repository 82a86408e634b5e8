package io.siteflow.agent.ebpf;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.IpAddresses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Drained kernel entries become the records the packet path writes: the initiator as src, deltas per record, interim
 * records on the active timeout, final ones on idle, close and eviction, the RTT in the record that covers it.
 */
class KernelFlowsTest {
    private static final long SEC = 1_000_000_000L;
    /** Kernel times (monotonic) plus this are epoch ns: 2025-11-24T16:00:00Z at kernel time 0. */
    private static final long WALL = 1_764_000_000L * SEC;
    private static final long CLIENT = IpAddresses.v4Lo(0x0A02_0014); // 10.2.0.20, the higher address: side b
    private static final long SERVER = IpAddresses.v4Lo(0x0A01_000A); // 10.1.0.10: side a
    private static final int SYN = 0x02;
    private static final int ACK = 0x10;
    private static final int FIN = 0x01;

    private final List<FlowRecord> records = new ArrayList<>();
    private final FlowTableConfig config = new FlowTableConfig(16, Duration.ofSeconds(10), Duration.ofSeconds(30),
            Duration.ofSeconds(2));
    private final KernelFlows flows = new KernelFlows(config, new RecordFactory("edge", "eth0", "run"),
            FlowSink.to(records::add));

    /** A TCP entry of the flow 10.2.0.20:40112 -> 10.1.0.10:1521 (b -> a), kernel times in seconds. */
    private static KernelFlowEntry tcp(double first, double last, long toServer, long toClient, int clientFlags,
            int serverFlags, int firstFlags, long rtt) {
        return tcp(first, last, toServer, toClient, clientFlags, serverFlags, firstFlags, rtt, -1);
    }

    /** As above, with the entry's smallest data-segment RTT sample ({@code dataRtt}, -1 none). */
    private static KernelFlowEntry tcp(double first, double last, long toServer, long toClient, int clientFlags,
            int serverFlags, int firstFlags, long rtt, long dataRtt) {
        return new KernelFlowEntry(0, SERVER, 0, CLIENT, 1521, 40112, 6, (long) (first * SEC), (long) (last * SEC),
                toClient, toClient * 100, toClient * 114, toServer, toServer * 60, toServer * 74, serverFlags,
                clientFlags, firstFlags, true, rtt, dataRtt);
    }

    @Test
    void buildsOneRecordFromTwoDrainsWithTheSynSenderAsSrc() {
        flows.merge(tcp(1.0, 1.5, 3, 2, SYN | ACK, SYN | ACK, SYN, 830), WALL);
        flows.merge(tcp(2.0, 2.25, 4, 4, ACK | FIN, ACK | FIN, ACK, -1), WALL);
        flows.flushAll();

        assertThat(records).hasSize(1);
        assertThat(FlowRecordJson.toJson(records.get(0))).isEqualTo("{\"schema\":1,\"id\":\"run-1\",\"agent\":\"edge\",\"iface\":"
                + "\"eth0\",\"start\":1764000001000,\"end\":1764000002250,\"proto\":6,\"src\":\"10.2.0.20\","
                + "\"srcPort\":40112,\"dst\":\"10.1.0.10\",\"dstPort\":1521,\"bytes\":420,\"packets\":7,"
                + "\"rbytes\":600,\"rpackets\":6,\"frameBytes\":518,\"rframeBytes\":684,\"tcpFlags\":19,"
                + "\"rtcpFlags\":19,\"rttMicros\":830,\"final\":true}");
        assertThat(flows.flowsCreated()).isEqualTo(1);
        assertThat(flows.size()).isZero();
    }

    @Test
    void takesTheEphemeralPortsEndAsInitiatorOfAFlowAlreadyRunning() {
        // first packet seen: an ACK from the server (a) to the client: the client still initiated (port 1521 is known)
        flows.merge(new KernelFlowEntry(0, SERVER, 0, CLIENT, 1521, 40112, 6, SEC, SEC, 1, 52, 66, 0, 0, 0, ACK, 0,
                ACK, false, -1, -1), WALL);
        flows.flushAll();

        assertThat(records.get(0).src()).isEqualTo("10.2.0.20");
        assertThat(records.get(0).dstPort()).isEqualTo(1521);
        assertThat(records.get(0).rpackets()).isEqualTo(1);
    }

    @Test
    void exportsAnInterimRecordOnTheActiveTimeoutThenOnlyTheDelta() {
        flows.merge(tcp(1.0, 5.0, 10, 10, ACK, ACK, SYN, 500), WALL);
        flows.expire(WALL + 10 * SEC);
        assertThat(records).isEmpty();
        flows.expire(WALL + 11 * SEC);
        flows.merge(tcp(12.0, 13.0, 1, 0, ACK, 0, ACK, -1), WALL);
        flows.expire(WALL + 14 * SEC);

        assertThat(records).hasSize(1);
        assertThat(records.get(0).isFinal()).isFalse();
        assertThat(records.get(0).packets()).isEqualTo(10);
        assertThat(records.get(0).rttMicros()).isEqualTo(500);
        flows.expire(WALL + 43 * SEC); // 30 s after the last packet
        assertThat(records).hasSize(2);
        FlowRecord last = records.get(1);
        assertThat(List.of(last.packets(), last.rpackets(), last.start(), last.end(), last.isFinal()))
                .containsExactly(1L, 0L, 1_764_000_012_000L, 1_764_000_013_000L, true);
        assertThat(last.rttMicros()).isNull();
    }

    @Test
    void carriesTheSmallestDataRttOfTheDrainsOfARecordAndStartsAfreshWithTheNext() {
        flows.merge(tcp(1.0, 1.5, 3, 2, SYN | ACK, SYN | ACK, SYN, 830, 140), WALL);
        flows.merge(tcp(2.0, 2.5, 5, 5, ACK, ACK, ACK, -1, 95), WALL);
        flows.merge(tcp(3.0, 3.5, 5, 5, ACK, ACK, ACK, -1, -1), WALL);
        flows.expire(WALL + 11 * SEC); // the active timeout: an interim record over the three drains
        flows.merge(tcp(12.0, 12.5, 5, 5, ACK, ACK, ACK, -1, 210), WALL);
        flows.expire(WALL + 22 * SEC);
        flows.merge(tcp(23.0, 23.5, 1, 1, ACK, ACK, ACK, -1, -1), WALL);
        flows.flushAll();

        assertThat(records).extracting(FlowRecord::dataRttMicros).containsExactly(95L, 210L, null);
        assertThat(records).extracting(FlowRecord::rttMicros).containsExactly(830L, null, null);
        assertThat(FlowRecordJson.toJson(records.get(0))).contains("\"rttMicros\":830,\"dataRttMicros\":95,");
    }

    @Test
    void endsAFlowClosedByBothFinsAfterTheLingerNotBefore() {
        flows.merge(tcp(1.0, 2.0, 5, 5, ACK | FIN, ACK | FIN, SYN, -1), WALL);
        flows.expire(WALL + 3 * SEC + SEC / 2);
        assertThat(records).isEmpty();
        flows.expire(WALL + 4 * SEC);
        assertThat(records).extracting(FlowRecord::isFinal).containsExactly(true);
    }

    @Test
    void evictsTheLeastRecentlySeenFlowBeyondMaxFlows() {
        for (int i = 1; i <= 16; i++) {
            flows.merge(udp(40000 + i, i), WALL);
        }
        flows.merge(udp(40001, 17.0), WALL); // 40001 seen again: 40002 is now the least recent
        flows.merge(udp(40017, 18.0), WALL);

        assertThat(records).extracting(FlowRecord::srcPort).containsExactly(40002);
        assertThat(records.get(0).isFinal()).isTrue();
        assertThat(flows.evictions()).isEqualTo(1);
        assertThat(flows.size()).isEqualTo(16);
        assertThat(flows.flowsCreated()).isEqualTo(17);
    }

    private static KernelFlowEntry udp(int clientPort, double at) {
        return new KernelFlowEntry(0, SERVER, 0, CLIENT, 53, clientPort, 17, (long) (at * SEC), (long) (at * SEC), 0,
                0, 0, 1, 60, 74, 0, 0, 0, true, -1, -1);
    }
}
