package io.siteflow.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The record's shape: groups, the accessors that read through them, the builder's defaults, the l7 name. */
class FlowRecordTest {
    private static FlowRecord.Builder tcp() {
        return FlowRecord.builder().id("run1-1").agent("wls3").iface("ens3").time(10, 20)
                .endpoints(6, "10.2.0.20", 40112, "10.1.0.10", 1521);
    }

    @Test
    void buildsARecordWithNothingOptionalByDefault() {
        FlowRecord r = tcp().build();

        assertThat(r).isEqualTo(new FlowRecord(FlowRecord.SCHEMA, "run1-1", "wls3", "ens3", 10, 20,
                new Endpoints(6, "10.2.0.20", 40112, "10.1.0.10", 1521), Counters.NONE, Counters.NONE, null, null,
                L7Protocol.UNKNOWN, null, null, DbCalls.NONE, false));
        assertThat(r.l7WireName()).isNull();
        assertThat(r.dbCallHistogram()).isSameAs(CallHistogram.EMPTY);
    }

    @Test
    void readsEachOldAccessorThroughItsGroup() {
        CallHistogram h = CallHistogram.of(Map.of(444, 2L));
        FlowRecord r = tcp().forward(100, 2, 128, 0x1B).reverse(3000, 4, 3056, 0x12).db(2, 13_000, h).build();

        assertThat(new long[] {r.proto(), r.srcPort(), r.dstPort(), r.bytes(), r.packets(), r.rbytes(), r.rpackets(),
            r.frameBytes(), r.rframeBytes(), r.tcpFlags(), r.rtcpFlags(), r.dbCalls(), r.dbCallMicros(),
            r.totalBytes(), r.totalPackets()})
                .containsExactly(6, 40112, 1521, 100, 2, 3000, 4, 128, 3056, 0x1B, 0x12, 2, 13_000, 3100, 6);
        assertThat(r.src() + " " + r.dst()).isEqualTo("10.2.0.20 10.1.0.10");
        assertThat(r.dbCallHistogram()).isSameAs(h);
    }

    @Test
    void copiesEveryComponentIntoABuilder() {
        FlowRecord r = FlowRecordJsonTest.FULL;

        assertThat(r.toBuilder().build()).isEqualTo(r);
        assertThat(r.toBuilder().isFinal(false).build()).isEqualTo(new FlowRecord(r.schema(), r.id(), r.agent(),
                r.iface(), r.start(), r.end(), r.endpoints(), r.forward(), r.reverse(), r.rttMicros(),
                r.dataRttMicros(), r.l7(), r.l7Text(), r.sni(), r.db(), false));
    }

    @Test
    void carriesAListedL7NameAsItsProtocolAlone() {
        FlowRecord r = tcp().l7("oracle-tns").build();

        assertThat(r).isEqualTo(tcp().l7(L7Protocol.ORACLE_TNS).build());
        assertThat(r.l7Text()).isNull();
        assertThat(r.l7WireName()).isEqualTo("oracle-tns");
    }

    @Test
    void keepsAnL7NameItDoesNotListBesideUnknown() {
        FlowRecord redis = tcp().l7("redis").build();
        FlowRecord unknown = tcp().l7("unknown").build();
        FlowRecord upper = tcp().l7("TLS").build();

        assertThat(redis.l7()).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(redis.l7WireName()).isEqualTo("redis");
        assertThat(unknown.l7()).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(unknown.l7WireName()).isEqualTo("unknown");
        assertThat(upper.l7()).isEqualTo(L7Protocol.TLS);
        assertThat(upper.l7WireName()).isEqualTo("TLS");
        assertThat(redis).isNotEqualTo(tcp().build()).isNotEqualTo(unknown);
    }

    @Test
    void writesNoL7NameForNoneOrUnknown() {
        assertThat(tcp().l7((String) null).build().l7WireName()).isNull();
        assertThat(tcp().l7(L7Protocol.UNKNOWN).build().l7WireName()).isNull();
        assertThat(tcp().l7("redis").l7(L7Protocol.UNKNOWN).build()).isEqualTo(tcp().build());
    }

    @Test
    void refusesAnL7NameThatNamesAnotherProtocol() {
        assertThatThrownBy(() -> new FlowRecord(1, "run1-1", "wls3", "ens3", 0, 0,
                new Endpoints(6, "10.2.0.20", 1, "10.1.0.10", 2), Counters.NONE, Counters.NONE, null, null,
                L7Protocol.TLS, "http", null, DbCalls.NONE, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("l7Text \"http\" names HTTP, not TLS");
    }

    @Test
    void namesTheMissingComponent() {
        assertThatThrownBy(() -> tcp().agent(null).build()).isInstanceOf(NullPointerException.class)
                .hasMessage("agent");
        assertThatThrownBy(() -> FlowRecord.builder().id("x").agent("a").iface("i").build())
                .isInstanceOf(NullPointerException.class).hasMessage("endpoints");
        assertThatThrownBy(() -> tcp().endpoints(6, null, 1, "10.1.0.10", 2)).isInstanceOf(NullPointerException.class)
                .hasMessage("src");
        assertThatThrownBy(() -> tcp().db(1, 1, null)).isInstanceOf(NullPointerException.class)
                .hasMessage("dbCallHistogram");
    }
}
