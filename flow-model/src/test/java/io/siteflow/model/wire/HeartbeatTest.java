package io.siteflow.model.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.Fixtures;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HeartbeatTest {
    /** The heartbeat of heartbeat-wls3.json. */
    private static final Heartbeat WLS3 = new Heartbeat("wls3", "ens3", 1_764_000_029_000L, 123_456, 7, 1, 2, 9_876,
            10, 3);

    @Test
    void writesTheGoldenJsonFieldsInComponentOrder() {
        assertThat(json(WLS3)).isEqualTo(Fixtures.text(HeartbeatTest.class, "heartbeat-wls3.json"));
    }

    @Test
    void readsTheGoldenJsonIntoEveryField() {
        assertThat(Heartbeat.parse(Fixtures.text(HeartbeatTest.class, "heartbeat-wls3.json"))).contains(WLS3);
    }

    @Test
    void roundTripsExtremeValuesAndTextThatNeedsEscaping() {
        Heartbeat h = new Heartbeat("agent \"ä\"\\1", "", 0, Long.MAX_VALUE, 0, 0, 0, Long.MAX_VALUE, 0,
                Long.MAX_VALUE);

        assertThat(Heartbeat.parse(json(h))).contains(h);
    }

    @Test
    void writesAndReadsEachWorkersCountersOfAFanOutCapture() {
        Heartbeat h = new Heartbeat("edge-a", "ens4", 1_764_000_000_000L, 1_000, 5, 1, 0, 40, 0, 0,
                List.of(new Heartbeat.Worker(600, 2, 1, 0), new Heartbeat.Worker(400, 3, 0, 7)));

        assertThat(json(h)).isEqualTo("{\"agent\":\"edge-a\",\"iface\":\"ens4\",\"time\":1764000000000,"
                + "\"received\":1000,\"droppedKernel\":5,\"droppedInterface\":1,\"decodeErrors\":0,"
                + "\"recordsSent\":40,\"spooled\":0,\"dropped\":0,\"workers\":[{\"received\":600,"
                + "\"droppedKernel\":2,\"droppedInterface\":1,\"droppedAgent\":0},{\"received\":400,"
                + "\"droppedKernel\":3,\"droppedInterface\":0,\"droppedAgent\":7}]}");
        assertThat(Heartbeat.parse(json(h))).contains(h);
    }

    @Test
    void writesAndReadsACollectorsExportCountersAfterTheCaptureOnes() {
        Heartbeat h = new Heartbeat("edge-b", "0.0.0.0:2055", 1_764_000_000_000L, 1_122, 6, 0, 0, 1_122, 0, 0,
                List.of(), new Heartbeat.Export(335, 1_082, 3, 1, 40, 2, 5, 7));

        assertThat(json(h)).isEqualTo("{\"agent\":\"edge-b\",\"iface\":\"0.0.0.0:2055\",\"time\":1764000000000,"
                + "\"received\":1122,\"droppedKernel\":6,\"droppedInterface\":0,\"decodeErrors\":0,"
                + "\"recordsSent\":1122,\"spooled\":0,\"dropped\":0,\"exportDatagrams\":335,\"exportRecords\":1082,"
                + "\"exportRecordsLost\":3,\"exportPacketsLost\":1,\"exportSflowPackets\":40,"
                + "\"exportSflowDatagramsLost\":2,\"exportDatagramsMalformed\":5,\"exportersRefused\":7}");
        assertThat(Heartbeat.parse(json(h))).contains(h);
    }

    @Test
    void aHeartbeatWithoutExportCountersHasNoneAndOneWithSomeReadsTheMissingAsZeros() {
        // the golden heartbeat predates the collector's counters: a capture agent's, or an older collector's
        assertThat(Heartbeat.parse(Fixtures.text(HeartbeatTest.class, "heartbeat-wls3.json")).orElseThrow().export())
                .isNull();
        assertThat(Heartbeat.parse("{\"agent\":\"c\",\"exportDatagrams\":4,\"exportRecordsLost\":1}")
                .orElseThrow().export()).isEqualTo(new Heartbeat.Export(4, 0, 1, 0, 0, 0, 0, 0));
    }

    @Test
    void skipsWorkersThatAreNoObjectsAndReadsTheFieldsAfterThem() {
        assertThat(Heartbeat.parse("{\"agent\":\"a\",\"workers\":[1,[2],{\"received\":5}],\"received\":9}"))
                .contains(new Heartbeat("a", "", 0, 9, 0, 0, 0, 0, 0, 0, List.of(new Heartbeat.Worker(5, 0, 0, 0))));
    }

    @Test
    void readsAHeartbeatWithoutCountersAsZeros() {
        assertThat(Heartbeat.parse("{\"agent\":\"edge-b\",\"iface\":\"ens4\",\"time\":1764000000000}"))
                .contains(new Heartbeat("edge-b", "ens4", 1_764_000_000_000L, 0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void skipsUnknownFieldsAndReadsCountersOfAnotherTypeAsZero() {
        assertThat(Heartbeat.parse("{\"version\":{\"major\":2},\"agent\":\"a\",\"workers\":[1,2],\"received\":\"5\","
                + "\"spooled\":4.5,\"dropped\":null,\"decodeErrors\":3,\"extra\":true}"))
                .contains(new Heartbeat("a", "", 0, 0, 0, 0, 3, 0, 0, 0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "[]", "\"wls3\"", "not json", "{\"iface\":\"ens3\"}", "{\"agent\":7}",
        "{\"agent\":\"wls3\",\"time\":", "{\"agent\":\"wls3\",\"received\":99999999999999999999}"})
    void readsNothingFromTextThatIsNoHeartbeat(String text) {
        assertThat(Heartbeat.parse(text)).isEmpty();
    }

    @Test
    void readsNothingFromNull() {
        assertThat(Heartbeat.parse(null)).isEmpty();
    }

    @Test
    void requiresAnAgentAndAnInterface() {
        assertThatThrownBy(() -> new Heartbeat(null, "ens3", 0, 0, 0, 0, 0, 0, 0, 0))
                .isInstanceOf(NullPointerException.class).hasMessage("agent");
        assertThatThrownBy(() -> new Heartbeat("a", null, 0, 0, 0, 0, 0, 0, 0, 0))
                .isInstanceOf(NullPointerException.class).hasMessage("iface");
    }

    private static String json(Heartbeat h) {
        return new String(h.toJson(), StandardCharsets.UTF_8);
    }
}
