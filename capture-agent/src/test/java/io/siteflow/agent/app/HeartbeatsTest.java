package io.siteflow.agent.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.MalformedReason;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.publish.kafka.PublishStats;
import io.siteflow.model.wire.Heartbeat;
import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.publish.kafka.HeartbeatPublisher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class HeartbeatsTest {

    @Test
    void spooledIsWhatWaitsInTheSpoolNowNotTheRunningTotal() {
        DecodeCounters counters = new DecodeCounters();
        counters.count(DecodeStatus.MALFORMED, MalformedReason.LINK_TRUNCATED, 1, 60);
        counters.count(DecodeStatus.IP, MalformedReason.NONE, 1, 60);
        // 10 records went to the spool during an outage, 7 of them replayed since: 3 wait now
        PublishStats publish = new PublishStats(120, 117, 10, 7, 2, 0, 3, 4096, 0, false);

        Heartbeat h = Heartbeats.heartbeat("wls3", "ens3", 1_700_000_000_000L, new CaptureStats(1000, 4, 1),
                counters, publish, List.of(), null);

        assertThat(h).isEqualTo(new Heartbeat("wls3", "ens3", 1_700_000_000_000L, 1000, 4, 1, 1, 117, 3, 2));
    }

    @Test
    void aCollectorsHeartbeatCarriesItsExportCountersEachInItsOwnField() {
        // siteflow collect: received = 1082 records + 40 sFlow packets, droppedKernel = 3 + 1 + 2 in mixed units
        Heartbeat.Export export = new Heartbeat.Export(335, 1082, 3, 1, 40, 2, 5, 7);
        PublishStats publish = new PublishStats(1122, 1122, 0, 0, 0, 0, 0, 4096, 0, false);

        Heartbeat h = Heartbeats.heartbeat("edge-b", "0.0.0.0:2055", 1_700_000_000_000L,
                new CaptureStats(1122, 6, 0), new DecodeCounters(), publish, List.of(), export);

        assertThat(new String(h.toJson(), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("{\"agent\":\"edge-b\","
                + "\"iface\":\"0.0.0.0:2055\",\"time\":1700000000000,\"received\":1122,\"droppedKernel\":6,"
                + "\"droppedInterface\":0,\"decodeErrors\":0,\"recordsSent\":1122,\"spooled\":0,\"dropped\":0,"
                + "\"exportDatagrams\":335,\"exportRecords\":1082,\"exportRecordsLost\":3,\"exportPacketsLost\":1,"
                + "\"exportSflowPackets\":40,\"exportSflowDatagramsLost\":2,\"exportDatagramsMalformed\":5,"
                + "\"exportersRefused\":7}");
        assertThat(Heartbeat.parse(new String(h.toJson(), java.nio.charset.StandardCharsets.UTF_8))).contains(h);
    }

    @Test
    void closingSendsOneLastHeartbeatWithTheFinalCountersAfterThePeriodicOnes() throws Exception {
        MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(),
                new ByteArraySerializer());
        // the collector's counters while it runs, then at its end: 150 datagrams dropped by the full pool since
        AtomicReference<Heartbeat.Export> export = new AtomicReference<>(new Heartbeat.Export(100, 3000, 0, 0, 0, 0,
                0, 0));
        HeartbeatPublisher publisher = new HeartbeatPublisher(producer, HeartbeatPublisher.DEFAULT_TOPIC,
                Duration.ofHours(1), () -> Heartbeats.heartbeat("edge-b", "127.0.0.1:2055", 1_700_000_000_000L,
                        new CaptureStats(export.get().records(), 0, 0), new DecodeCounters(),
                        new PublishStats(0, 0, 0, 0, 0, 0, 0, 0, 0, false), List.of(), export.get()));
        AutoCloseable heartbeats = Heartbeats.lastOnClose(publisher);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> producer.history().size() == 1);

        export.set(new Heartbeat.Export(251, 3030, 4500, 0, 0, 0, 150, 0));
        heartbeats.close();

        assertThat(producer.history()).hasSize(2);
        ProducerRecord<String, byte[]> last = producer.history().get(1);
        assertThat(last.topic()).isEqualTo("siteflow.agents");
        assertThat(last.key()).isEqualTo("edge-b");
        assertThat(Heartbeat.parse(new String(last.value(), StandardCharsets.UTF_8)).orElseThrow().export())
                .isEqualTo(new Heartbeat.Export(251, 3030, 4500, 0, 0, 0, 150, 0));
    }

    @Test
    void carriesEachWorkersPacketsAndDropsOnlyWhenThereAreSeveral() {
        CaptureReadings readings = new CaptureReadings() {
            @Override
            public DecodeCounters counters() {
                return new DecodeCounters();
            }

            @Override
            public int workers() {
                return 2;
            }

            @Override
            public long activeFlows() {
                return 0;
            }

            @Override
            public long flowsCreated() {
                return 0;
            }

            @Override
            public long evictions() {
                return 0;
            }

            @Override
            public long agentDrops() {
                return 9;
            }

            @Override
            public long agentDrops(int worker) {
                return worker == 0 ? 2 : 7;
            }
        };

        assertThat(Heartbeats.workers(List.of(new CaptureStats(600, 2, 1), new CaptureStats(400, 3, 0)), readings))
                .containsExactly(new Heartbeat.Worker(600, 2, 1, 2), new Heartbeat.Worker(400, 3, 0, 7));
        assertThat(Heartbeats.workers(List.of(new CaptureStats(600, 2, 1)), readings)).isEmpty();
    }
}
