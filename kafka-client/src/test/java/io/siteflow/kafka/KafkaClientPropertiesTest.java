package io.siteflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClientPropertiesTest {
    @TempDir
    Path dir;

    @Test
    void parsesKeyValueOptionsWithTheLastKeyWinning() {
        assertThat(KafkaClientProperties.parse(List.of("linger.ms=50", "sasl.jaas.config=a=b c", "linger.ms=5")))
                .containsExactly(Map.entry("linger.ms", "5"), Map.entry("sasl.jaas.config", "a=b c"));
    }

    @Test
    void rejectsAnOptionWithoutKeyOrEquals() {
        assertThatThrownBy(() -> KafkaClientProperties.parse(List.of("linger.ms")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--kafka \"linger.ms\": expected KEY=VALUE");
        assertThatThrownBy(() -> KafkaClientProperties.parse(List.of("=5")))
                .hasMessage("--kafka \"=5\": expected KEY=VALUE");
    }

    @Test
    void loadsAPropertiesFile() throws IOException {
        Path f = dir.resolve("kafka.properties");
        Files.writeString(f, "# producer\nsecurity.protocol=SSL\nssl.truststore.password=s3cret\n");
        assertThat(KafkaClientProperties.load(f)).containsExactly(Map.entry("security.protocol", "SSL"),
                Map.entry("ssl.truststore.password", "s3cret"));
    }

    @Test
    void namesAMissingFile() {
        Path f = dir.resolve("missing.properties");
        assertThatThrownBy(() -> KafkaClientProperties.load(f))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(f + ": cannot read Kafka properties: ");
    }

    @Test
    void masksSecretsWhenDescribed() {
        assertThat(KafkaClientProperties.describe(Map.of("ssl.truststore.password", "s3cret", "acks", "all",
                "sasl.jaas.config", "x")))
                .isEqualTo("acks=all, sasl.jaas.config=****, ssl.truststore.password=****");
    }
}
