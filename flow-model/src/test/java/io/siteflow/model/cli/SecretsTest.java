package io.siteflow.model.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SecretsTest {
    @ParameterizedTest
    @ValueSource(strings = {"ssl.truststore.password", "ssl.key.password", "SSL.KEYSTORE.PASSWORD", "sasl.jaas.config",
        "sasl.oauthbearer.client.credentials.client.secret", "sasl.oauthbearer.assertion.file.token", "http.token",
        "sasl.client.credentials", "ssl.keystore.key", "tls.key.pem", "sasl.oauthbearer.assertion.private.key.passphrase",
        "ssl.keystore.certificate.chain", "ssl.truststore.certificates", "sasl.oauthbearer.assertion.private.key.file",
        "schema.registry.api.key", "apikey", "client.credential"})
    void masksKeysThatNameASecret(String key) {
        assertThat(Secrets.isSecret(key)).isTrue();
        assertThat(Secrets.mask(key, "s3cret")).isEqualTo("****");
    }

    @ParameterizedTest
    @ValueSource(strings = {"acks", "linger.ms", "bootstrap.servers", "ssl.keystore.location", "ssl.keystore.type",
        "key.serializer", "sasl.mechanism", "security.protocol"})
    void showsOtherValues(String key) {
        assertThat(Secrets.isSecret(key)).isFalse();
        assertThat(Secrets.mask(key, 5)).isEqualTo("5");
    }

    @Test
    void describesAMapInKeyOrderWithSecretsMasked() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required password=x;");
        config.put("acks", "all");
        config.put("ssl.truststore.password", "s3cret");
        config.put("linger.ms", 5);
        config.put("nothing", null);

        assertThat(Secrets.describe(config))
                .isEqualTo("acks=all, linger.ms=5, nothing=null, sasl.jaas.config=****, ssl.truststore.password=****");
    }

    @Test
    void describesNothingAsEmptyText() {
        assertThat(Secrets.describe(Map.of())).isEmpty();
    }
}
