package io.siteflow.agent.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.IpAddresses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two directions of a conversation, exported as two unidirectional records or one RFC 5103 biflow record, become
 * one flow record of the agent's shape: initiator from SYN without ACK, else the flow table's port rule; counts
 * scaled by the sampling rate; emitted after the active timeout, the idle timeout, on eviction or at the end.
 */
class BiflowJoinerTest {
    private static final String DB = "10.1.0.10";
    private static final String APP = "10.2.0.20";

    private final List<FlowRecord> out = new ArrayList<>();
    private final ExporterState exporter = exporter("192.0.2.1");
    private BiflowJoiner joiner = joiner(FlowTableConfig.DEFAULTS);

    private BiflowJoiner joiner(FlowTableConfig config) {
        return new BiflowJoiner("edge-b", "0.0.0.0:2055", "run", config, out::add);
    }

    private static ExporterState exporter(String address) {
        long[] hl = IpAddresses.parse(address);
        return new ExporterState(hl[0], hl[1], address);
    }

    private static ExportFlow flow(String src, int srcPort, String dst, int dstPort, int proto, long bytes,
            long packets, int flags, long start, long end) {
        ExportFlow f = new ExportFlow();
        f.reset();
        long[] s = IpAddresses.parse(src);
        long[] d = IpAddresses.parse(dst);
        f.srcHi = s[0];
        f.srcLo = s[1];
        f.dstHi = d[0];
        f.dstLo = d[1];
        f.hasSrc = f.hasDst = true;
        f.srcPort = srcPort;
        f.dstPort = dstPort;
        f.proto = proto;
        f.bytes = bytes;
        f.packets = packets;
        f.tcpFlags = flags;
        f.startMs = start;
        f.endMs = end;
        return f;
    }

    @Test
    void joinsBothDirectionsIntoOneRecordWithTheServerOnTheKnownPort() {
        joiner.now(1_000);
        joiner.flow(exporter, 3, flow(DB, 1521, APP, 40112, 6, 41_000, 8, 0x1A, 1_764_000_000_010L,
                1_764_000_009_000L), 1);
        joiner.flow(exporter, 3, flow(APP, 40112, DB, 1521, 6, 5_200, 10, 0x1B, 1_764_000_000_000L,
                1_764_000_009_870L), 1);
        joiner.flushAll();

        assertThat(out).extracting(FlowRecordJson::toJson).containsExactly("{\"schema\":1,\"id\":\"run-1\","
                + "\"agent\":\"edge-b\",\"iface\":\"0.0.0.0:2055\",\"start\":1764000000000,\"end\":1764000009870,"
                + "\"proto\":6,\"src\":\"10.2.0.20\",\"srcPort\":40112,\"dst\":\"10.1.0.10\",\"dstPort\":1521,"
                + "\"bytes\":5200,\"packets\":10,\"rbytes\":41000,\"rpackets\":8,\"frameBytes\":0,\"rframeBytes\":0,"
                + "\"tcpFlags\":27,\"rtcpFlags\":26,\"exporter\":\"192.0.2.1\",\"observationDomain\":3,"
                + "\"final\":true}");
    }

    @Test
    void takesTheInitiatorFromSynWithoutAckOverThePortRule() {
        joiner.now(0);
        // a client on port 80 opening a connection to a server on 50000: the port rule alone would say the opposite
        joiner.flow(exporter, 0, flow(APP, 80, DB, 50_000, 6, 60, 1, 0x02, 5, 5), 1);
        joiner.flow(exporter, 0, flow(DB, 50_000, APP, 80, 6, 60, 1, 0x12, 6, 6), 1);
        joiner.flushAll();

        assertThat(out).singleElement().satisfies(r -> {
            assertThat(r.src() + ":" + r.srcPort() + ">" + r.dst() + ":" + r.dstPort())
                    .isEqualTo("10.2.0.20:80>10.1.0.10:50000");
            assertThat(r.tcpFlags()).isEqualTo(0x02);
            assertThat(r.rtcpFlags()).isEqualTo(0x12);
        });
    }

    @Test
    void scalesBothDirectionsOfABiflowRecordByTheSamplingRateAndMarksItSampled() {
        ExportFlow f = flow(APP, 40112, DB, 1521, 6, 52, 1, 0x18, 10, 20);
        f.rbytes = 410;
        f.rpackets = 2;
        f.rtcpFlags = 0x18;
        f.biflow = true;
        joiner.flow(exporter, 0, f, 100);
        joiner.flushAll();

        assertThat(out).singleElement().satisfies(r -> {
            assertThat(List.of(r.bytes(), r.packets(), r.rbytes(), r.rpackets())).containsExactly(5_200L, 100L,
                    41_000L, 200L);
            assertThat(r.sampled()).isEqualTo(100);
            assertThat(r.src()).isEqualTo(APP);
        });
    }

    @Test
    void keepsExportersAndDomainsApart() {
        joiner.flow(exporter, 0, flow(APP, 40112, DB, 1521, 6, 1, 1, 0, 0, 0), 1);
        joiner.flow(exporter, 1, flow(DB, 1521, APP, 40112, 6, 2, 1, 0, 0, 0), 1);
        joiner.flow(exporter("192.0.2.2"), 0, flow(DB, 1521, APP, 40112, 6, 4, 1, 0, 0, 0), 1);
        joiner.flushAll();

        assertThat(out).extracting(r -> r.exporter() + "/" + r.observationDomain() + " " + r.totalBytes())
                .containsExactly("192.0.2.1/0 1", "192.0.2.1/1 2", "192.0.2.2/0 4");
    }

    @Test
    void emitsAnInterimRecordAfterTheActiveTimeoutAndTheRestLater() {
        joiner = joiner(FlowTableConfig.DEFAULTS.withActiveTimeout(Duration.ofSeconds(10)));
        joiner.now(1_000);
        joiner.flow(exporter, 0, flow(APP, 40112, DB, 1521, 6, 100, 1, 0x18, 0, 0), 1);
        joiner.expire(10_999);
        assertThat(out).isEmpty();
        joiner.expire(11_000);
        joiner.now(12_000);
        joiner.flow(exporter, 0, flow(APP, 40112, DB, 1521, 6, 30, 1, 0x11, 0, 0), 1);
        joiner.flushAll();

        assertThat(out).extracting(r -> r.bytes() + (r.isFinal() ? " final" : " interim"))
                .containsExactly("100 interim", "30 final");
        assertThat(joiner.created()).isEqualTo(2);
    }

    @Test
    void endsAConversationSilentForTheIdleTimeout() {
        joiner = joiner(new FlowTableConfig(16, Duration.ofSeconds(60), Duration.ofSeconds(5), Duration.ZERO));
        joiner.now(0);
        joiner.flow(exporter, 0, flow(APP, 40112, DB, 1521, 6, 100, 1, 0x18, 0, 0), 1);
        joiner.now(3_000);
        joiner.flow(exporter, 0, flow(APP, 40113, DB, 1521, 6, 7, 1, 0x18, 0, 0), 1);
        joiner.expire(5_000);

        assertThat(out).extracting(r -> r.srcPort() + " " + r.isFinal()).containsExactly("40112 true");
        assertThat(joiner.held()).isEqualTo(1);
    }

    @Test
    void evictsTheOldestConversationWhenTheTableIsFull() {
        joiner = joiner(FlowTableConfig.DEFAULTS.withMaxFlows(16));
        for (int i = 0; i < 17; i++) {
            joiner.flow(exporter, 0, flow(APP, 40_000 + i, DB, 1521, 6, 1, 1, 0, 0, 0), 1);
        }

        assertThat(out).extracting(FlowRecord::srcPort).containsExactly(40_000);
        assertThat(joiner.evictions()).isEqualTo(1);
        assertThat(joiner.held()).isEqualTo(16);
    }

    @Test
    void leavesOutRecordsWithoutBothAddresses() {
        ExportFlow f = flow(APP, 1, DB, 2, 17, 1, 1, 0, 0, 0);
        f.hasDst = false;
        joiner.flow(exporter, 0, f, 1);
        joiner.flushAll();

        assertThat(out).isEmpty();
        assertThat(joiner.unaddressed()).isEqualTo(1);
    }
}
