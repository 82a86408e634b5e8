package io.siteflow.agent.flow;

import static io.siteflow.agent.flow.Packets.ACK;
import static io.siteflow.agent.flow.Packets.PSH;
import static io.siteflow.agent.flow.Packets.ms;
import static io.siteflow.agent.flow.Packets.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.Counters;
import io.siteflow.model.Endpoints;
import io.siteflow.model.FlowRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One record shape for both orientations of a flow-table slot: the slot's side a is the lower address, so a client
 * below the server initiates from side a and one above it from side b; either way the record's src is the
 * initiator and every counter travels with its direction.
 */
class RecordFactoryTest {
    private static final long T0 = 1_764_000_000_000L;
    private static final String SERVER = "10.1.0.10";

    @ParameterizedTest(name = "client {0}")
    @ValueSource(strings = {"10.0.0.20", "10.2.0.20"})
    void buildsTheInitiatorsRecordFromEitherSideOfTheSlot(String client) {
        CollectingSink sink = new CollectingSink();
        FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS, new RecordFactory("wls3", "ens3", "run1"), sink,
                L7Tracker.NONE);
        table.offer(tcp(SERVER, 1521, client, 40112, ACK, 1, 101, 300), ms(T0), 366, new byte[0]);
        table.offer(tcp(client, 40112, SERVER, 1521, PSH | ACK, 101, 301, 100), ms(T0 + 1), 166, new byte[0]);
        table.flushAll();

        assertThat(sink.records).hasSize(1);
        FlowRecord r = sink.records.get(0);
        assertThat(r.endpoints()).isEqualTo(new Endpoints(6, client, 40112, SERVER, 1521));
        assertThat(r.forward()).isEqualTo(new Counters(140, 1, 166, PSH | ACK));
        assertThat(r.reverse()).isEqualTo(new Counters(340, 1, 366, ACK));
        assertThat(r).isEqualTo(FlowRecord.builder().id("run1-1").agent("wls3").iface("ens3").time(T0, T0 + 1)
                .endpoints(6, client, 40112, SERVER, 1521).forward(140, 1, 166, PSH | ACK).reverse(340, 1, 366, ACK)
                .isFinal(true).build());
    }
}
