package io.siteflow.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.kafka.KafkaClientProperties;
import io.siteflow.model.cli.Secrets;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import kafka.server.KafkaConfig;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.security.ssl.SslPrincipalMapper;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

/**
 * The sample Kafka settings in deploy/conf (docs/OPERATIONS.md, "Security") are what their readers take: every key
 * of an agent's file is a producer setting, of a processor's a Streams or client setting, a broker's file makes a
 * valid server configuration with siteflow's own settings, the mutual TLS mapping is the one {@code MutualTlsIT}
 * proves, and no sample holds a value other than the {@code CHANGE-ME} placeholder where a secret goes.
 */
class KafkaConfSamplesTest {
    private static final Path CONF = Path.of("..", "deploy", "conf");

    @Test
    void agentSamplesHoldProducerSettingsOnly() throws IOException {
        for (String f : List.of("agent-sasl_ssl.properties", "agent-mtls.properties")) {
            assertThat(unknown(load(f), ProducerConfig.configNames())).as(f).isEmpty();
        }
    }

    @Test
    void processorSamplesHoldStreamsAndClientSettingsOnly() throws IOException {
        for (String f : List.of("processor-sasl_ssl.properties", "processor-mtls.properties")) {
            Set<String> known = new HashSet<>(StreamsConfig.configDef().names());
            known.addAll(AdminClientConfig.configNames()); // security settings go to every client Streams makes
            known.addAll(ConsumerConfig.configNames());
            known.addAll(ProducerConfig.configNames());
            assertThat(unknown(load(f), known)).as(f).isEmpty();
        }
    }

    @Test
    void brokerSamplesMakeValidServerSettings() throws IOException {
        for (String f : List.of("broker-sasl_ssl.properties", "broker-mtls.properties")) {
            Properties overrides = new Properties();
            overrides.putAll(load(f));
            Properties server = BrokerSettings.of(KraftQuorum.single("127.0.0.1", 9093), new KraftQuorum.HostPort("127.0.0.1",
                    9092), new KraftQuorum.HostPort("127.0.0.1", 9092), Path.of("/tmp/kafka"), overrides);
            new KafkaConfig(server, false); // throws ConfigException on a value Kafka refuses
            assertThat(server.getProperty("authorizer.class.name")).as(f).isEqualTo(SecureBrokers.AUTHORIZER);
        }
    }

    @Test
    void mutualTlsSampleMapsTheCertificateSubjectToTheShortPrincipal() throws IOException {
        String rules = load("broker-mtls.properties").get("ssl.principal.mapping.rules");
        assertThat(rules).isEqualTo(SecureBrokers.MAPPING_RULES);
        SslPrincipalMapper mapper = SslPrincipalMapper.fromRules(rules);
        assertThat(mapper.getName("CN=agent,OU=siteflow,O=example")).isEqualTo("agent");
        assertThat(mapper.getName(TestPki.subject("processor"))).isEqualTo("processor");
        assertThat(mapper.getName("CN=kafka1.example.net")).isEqualTo("CN=kafka1.example.net");
    }

    @Test
    void samplesHoldNoSecretButThePlaceholder() throws IOException {
        for (String f : List.of("agent-sasl_ssl.properties", "agent-mtls.properties", "processor-sasl_ssl.properties",
                "processor-mtls.properties", "broker-sasl_ssl.properties", "broker-mtls.properties")) {
            load(f).forEach((k, v) -> {
                if (Secrets.isSecret(k)) {
                    assertThat(v).as("%s: %s", f, k).matches("CHANGE-ME|.* password=\"CHANGE-ME\";");
                }
            });
        }
    }

    private static Map<String, String> load(String file) throws IOException {
        return KafkaClientProperties.load(CONF.resolve(file));
    }

    private static Set<String> unknown(Map<String, String> props, Set<String> known) {
        Set<String> out = new HashSet<>(props.keySet());
        out.removeAll(known);
        return out;
    }
}
