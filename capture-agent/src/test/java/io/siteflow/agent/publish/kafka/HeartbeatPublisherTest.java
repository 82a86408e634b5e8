package io.siteflow.agent.publish.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.wire.Heartbeat;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

class HeartbeatPublisherTest {
    @Test
    void writesTheCountersAsJson() {
        Heartbeat h = new Heartbeat("agent-1", "ens3", 1_764_000_000_000L, 1000, 2, 1, 3, 40, 5, 0);
        assertThat(new String(h.toJson(), StandardCharsets.UTF_8)).isEqualTo("{\"agent\":\"agent-1\",\"iface\":\"ens3\","
                + "\"time\":1764000000000,\"received\":1000,\"droppedKernel\":2,\"droppedInterface\":1,"
                + "\"decodeErrors\":3,\"recordsSent\":40,\"spooled\":5,\"dropped\":0}");
    }

    @Test
    void publishesHeartbeatsKeyedByAgentEveryInterval() {
        MockProducer<String, byte[]> p = new MockProducer<>(true, null, new StringSerializer(),
                new ByteArraySerializer());
        AtomicLong received = new AtomicLong();
        HeartbeatPublisher hb = new HeartbeatPublisher(p, HeartbeatPublisher.DEFAULT_TOPIC, Duration.ofMillis(20),
                () -> new Heartbeat("agent-1", "ens3", 0, received.incrementAndGet(), 0, 0, 0, 0, 0, 0));
        try {
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> p.history().size() >= 3);
        } finally {
            hb.close();
        }
        assertThat(p.history().subList(0, 3)).allSatisfy(r -> {
            assertThat(r.topic()).isEqualTo("siteflow.agents");
            assertThat(r.key()).isEqualTo("agent-1");
        });
        assertThat(new String(p.history().get(2).value(), StandardCharsets.UTF_8)).contains("\"received\":3,");
    }
}
