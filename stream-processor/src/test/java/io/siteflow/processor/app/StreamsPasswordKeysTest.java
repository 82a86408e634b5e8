package io.siteflow.processor.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.cli.Secrets;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The processor's effective-configuration line masks through {@link Secrets}; this asks Kafka's own
 * {@code ConfigDef}s (Streams and the clients it configures, with the prefixes Streams accepts) for every
 * {@code PASSWORD} property and fails when one is not covered.
 */
class StreamsPasswordKeysTest {
    private static final List<String> PREFIXES = List.of("", StreamsConfig.producerPrefix(""),
            StreamsConfig.consumerPrefix(""), StreamsConfig.adminClientPrefix(""), StreamsConfig.mainConsumerPrefix(""),
            StreamsConfig.restoreConsumerPrefix(""), StreamsConfig.globalConsumerPrefix(""),
            StreamsConfig.topicPrefix(""));

    private static List<String> passwordKeys() {
        TreeSet<String> keys = new TreeSet<>();
        Stream.of(StreamsConfig.configDef(), ProducerConfig.configDef(), ConsumerConfig.configDef(),
                AdminClientConfig.configDef()).flatMap(d -> d.configKeys().values().stream())
                .filter(k -> k.type == ConfigDef.Type.PASSWORD).forEach(k -> keys.add(k.name));
        return List.copyOf(keys);
    }

    @Test
    void findsThePasswordKeysOfKafka() {
        assertThat(passwordKeys()).contains("sasl.jaas.config", "ssl.keystore.key", "ssl.key.password",
                "ssl.truststore.certificates", "sasl.oauthbearer.client.credentials.client.secret");
    }

    @Test
    void everyPasswordKeyIsSecretWithEveryPrefixStreamsAccepts() {
        List<String> prefixed = PREFIXES.stream().flatMap(p -> passwordKeys().stream().map(k -> p + k)).toList();

        assertThat(prefixed).hasSize(PREFIXES.size() * passwordKeys().size())
                .allSatisfy(k -> assertThat(Secrets.mask(k, "clear")).as(k).isEqualTo(Secrets.MASK));
    }
}
