package io.siteflow.agent.publish.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProducerSettingsTest {
    @TempDir
    Path dir;

    @Test
    void sendsOneRequestAtATimeIdempotentlyWithUserPropertiesLast() {
        Map<String, Object> p = ProducerSettings.of(KafkaSinkConfig.builder("127.0.0.1:9092", dir)
                .clientProperties(Map.of("linger.ms", "5", "security.protocol", "SSL")).build());

        assertThat(p).containsEntry("enable.idempotence", "true").containsEntry("acks", "all")
                .containsEntry("max.in.flight.requests.per.connection", "1")
                .containsEntry("delivery.timeout.ms", "15000")
                .containsEntry("linger.ms", "5").containsEntry("security.protocol", "SSL");
    }
}
