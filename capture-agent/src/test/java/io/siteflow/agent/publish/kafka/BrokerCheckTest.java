package io.siteflow.agent.publish.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BrokerCheckTest {
    private static final Optional<String> REFUSED =
            Optional.of("kafka 127.0.0.1:9093: TLS handshake failed (Failed to process post-handshake messages)");

    @Test
    void aRefusedHandshakeOfAClientWithoutCertificateSaysWhatIsLikelyMissing() {
        assertThat(BrokerCheck.withCertificateHint(REFUSED, Map.of("security.protocol", "SSL")))
                .contains("kafka 127.0.0.1:9093: TLS handshake failed (Failed to process post-handshake messages); "
                        + "this client has no certificate (ssl.keystore.*), which a listener with "
                        + "ssl.client.auth=required refuses");
    }

    @Test
    void aClientWithACertificateOrAnotherProblemIsToldAsFound() {
        assertThat(BrokerCheck.withCertificateHint(REFUSED, Map.of("ssl.keystore.location", "/etc/agent.p12")))
                .isEqualTo(REFUSED);
        assertThat(BrokerCheck.withCertificateHint(Optional.of("kafka h:1: connection refused"), Map.of()))
                .contains("kafka h:1: connection refused");
        assertThat(BrokerCheck.withCertificateHint(Optional.empty(), Map.of())).isEmpty();
        // TLS spoken to a plaintext listener: no certificate hint (BrokerUnreachableIT)
        Optional<String> plaintext = Optional.of("kafka h:1: TLS handshake failed (Remote host terminated the handshake)");
        assertThat(BrokerCheck.withCertificateHint(plaintext, Map.of("security.protocol", "SSL"))).isEqualTo(plaintext);
    }
}
