package io.siteflow.agent.publish.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.kafka.KafkaClientProperties;
import io.siteflow.model.cli.Secrets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * The one masking function ({@link Secrets}, in flow-model, which has no Kafka) covers every property Kafka itself
 * types {@code PASSWORD}, asked from Kafka's own {@code ConfigDef}s: a Kafka upgrade that adds one fails here.
 */
public class KafkaPasswordKeysTest {
    /** Every PASSWORD key of the producer, consumer and admin client, in name order. */
    public static List<String> passwordKeys() {
        TreeSet<String> keys = new TreeSet<>();
        Stream.of(ProducerConfig.configDef(), ConsumerConfig.configDef(), AdminClientConfig.configDef())
                .flatMap(d -> d.configKeys().values().stream())
                .filter(k -> k.type == ConfigDef.Type.PASSWORD).forEach(k -> keys.add(k.name));
        return List.copyOf(keys);
    }

    @Test
    void kafkaStillHasThePasswordKeysThisTestWasWrittenFor() {
        assertThat(passwordKeys()).contains("sasl.jaas.config", "ssl.keystore.key", "ssl.truststore.certificates",
                "sasl.oauthbearer.client.credentials.client.secret", "sasl.oauthbearer.assertion.private.key.passphrase");
    }

    @Test
    void everyKafkaPasswordKeyIsSecret() {
        assertThat(passwordKeys()).allSatisfy(k -> assertThat(Secrets.isSecret(k)).as(k).isTrue());
    }

    @Test
    void theProducerLineAndTheSinkSettingsMaskEveryKafkaPasswordKey() {
        Map<String, String> given = new TreeMap<>();
        passwordKeys().forEach(k -> given.put(k, "clear-" + k));
        KafkaSinkConfig config = KafkaSinkConfig.builder("kafka1:9092", Path.of("/var/spool/siteflow"))
                .clientProperties(given).build();

        String producerLine = KafkaClientProperties.describe(ProducerSettings.of(config));
        assertThat(producerLine).doesNotContain("clear-");
        passwordKeys().forEach(k -> assertThat(producerLine).contains(k + "=****"));
        assertThat(config.toString()).doesNotContain("clear-");
    }
}
