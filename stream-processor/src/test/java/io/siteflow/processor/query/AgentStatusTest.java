package io.siteflow.processor.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.wire.Heartbeat;
import io.siteflow.processor.http.ApiJson;
import org.junit.jupiter.api.Test;

/** {@code /api/agents}' rows: a collector shows its export counters, a capture agent has no {@code export} field. */
class AgentStatusTest {
    private static final long NOW = 1_764_000_030_000L;

    @Test
    void aCollectorsRowCarriesItsExportCountersAndACaptureAgentsRowHasNone() {
        String collector = "{\"agent\":\"collector-r1\",\"iface\":\"udp:2055\",\"time\":1764000029000,\"received\":1082,"
                + "\"droppedKernel\":16,\"droppedInterface\":0,\"decodeErrors\":5,\"recordsSent\":540,\"spooled\":0,"
                + "\"dropped\":0,\"exportDatagrams\":335,\"exportRecords\":1082,\"exportRecordsLost\":16,"
                + "\"exportPacketsLost\":0,\"exportSflowPackets\":0,\"exportSflowDatagramsLost\":0,"
                + "\"exportDatagramsMalformed\":5,\"exportersRefused\":7}";
        AgentStatus c = AgentStatus.of(collector, NOW).orElseThrow();
        assertThat(c.export()).isEqualTo(new Heartbeat.Export(335, 1082, 16, 0, 0, 0, 5, 7));
        assertThat(ApiJson.write(c)).isEqualTo("{\"agent\":\"collector-r1\",\"iface\":\"udp:2055\","
                + "\"lastSeenMs\":1764000029000,\"received\":1082,\"droppedKernel\":16,\"droppedInterface\":0,"
                + "\"decodeErrors\":5,\"spooled\":0,\"dropped\":0,\"silent\":false,\"export\":{\"datagrams\":335,"
                + "\"records\":1082,\"recordsLost\":16,\"packetsLost\":0,\"sflowPackets\":0,\"sflowDatagramsLost\":0,"
                + "\"datagramsMalformed\":5,\"exportersRefused\":7}}");

        String agent = "{\"agent\":\"wls3\",\"iface\":\"ens3\",\"time\":1764000029000,\"received\":123456,"
                + "\"droppedKernel\":7,\"droppedInterface\":0,\"decodeErrors\":2,\"recordsSent\":99,\"spooled\":10,"
                + "\"dropped\":0}";
        AgentStatus a = AgentStatus.of(agent, NOW).orElseThrow();
        assertThat(a.export()).isNull();
        assertThat(ApiJson.write(a)).isEqualTo("{\"agent\":\"wls3\",\"iface\":\"ens3\",\"lastSeenMs\":1764000029000,"
                + "\"received\":123456,\"droppedKernel\":7,\"droppedInterface\":0,\"decodeErrors\":2,\"spooled\":10,"
                + "\"dropped\":0,\"silent\":false}");
    }
}
