package io.siteflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** The diagnosis of an unreachable broker, on loopback ports this test opens and closes itself. */
class BrokerReachabilityTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    /** A loopback port nothing listens on: bound, then closed. */
    private static String closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + s.getLocalPort();
        }
    }

    /** Kafka-like names: this module has no Kafka, the class is recognised by its simple name. */
    static final class SaslAuthenticationException extends RuntimeException {
        SaslAuthenticationException(String message) {
            super(message);
        }
    }

    @Test
    void namesTheAddressThatRefusedTheConnection() throws IOException {
        String address = closedPort();

        assertThat(BrokerReachability.check(address, TIMEOUT, () -> {
            throw new TimeoutException("Timed out waiting for a node assignment. Call: describeCluster");
        })).contains("kafka " + address + ": connection refused");
    }

    @Test
    void saysWhenAHostNameDoesNotResolve() {
        assertThat(BrokerReachability.unreachable("no-such-broker.invalid:9092", TIMEOUT))
                .contains("kafka no-such-broker.invalid:9092: cannot resolve host name (DNS)");
    }

    @Test
    void namesEachAddressWhenNoneCanBeReached() throws IOException {
        String closed = closedPort();

        assertThat(BrokerReachability.unreachable("no-such-broker.invalid:9092, " + closed + ",kafka", TIMEOUT))
                .contains("kafka no-such-broker.invalid:9092: cannot resolve host name (DNS); " + closed
                        + ": connection refused; kafka: not HOST:PORT");
    }

    @Test
    void findsNothingWrongWhenOneAddressAccepts() throws IOException {
        try (ServerSocket open = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String bootstrap = closedPort() + ",127.0.0.1:" + open.getLocalPort();

            assertThat(BrokerReachability.unreachable(bootstrap, TIMEOUT)).isEmpty();
            assertThat(BrokerReachability.check(bootstrap, TIMEOUT, () -> {
                throw new TimeoutException("Timed out waiting for a node assignment. Call: describeCluster");
            })).contains("kafka " + bootstrap + ": no Kafka answer within 2 s (TCP connects; the listener may not "
                    + "speak Kafka, or its TLS/SASL settings differ from the client's)");
        }
    }

    /** A loopback listener: the TCP part of the check passes, so the Kafka request's failure is what is told. */
    private static ServerSocket listening() throws IOException {
        return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    @Test
    void recognisesATlsHandshakeFailureAnywhereInTheCauseChain() throws IOException {
        try (ServerSocket broker = listening()) {
            String bootstrap = "127.0.0.1:" + broker.getLocalPort();

            assertThat(BrokerReachability.check(bootstrap, TIMEOUT, () -> {
                throw new ExecutionException(new IllegalStateException("wrapped",
                        new SSLHandshakeException("PKIX path building failed")));
            })).contains("kafka " + bootstrap + ": TLS handshake failed (PKIX path building failed)");
        }
    }

    @Test
    void recognisesAnAuthenticationFailure() throws IOException {
        try (ServerSocket broker = listening()) {
            String bootstrap = "127.0.0.1:" + broker.getLocalPort();

            assertThat(BrokerReachability.check(bootstrap, TIMEOUT, () -> {
                throw new ExecutionException(new SaslAuthenticationException(
                        "Authentication failed: Invalid username or password"));
            })).contains("kafka " + bootstrap + ": authentication failed (Authentication failed: Invalid username or "
                    + "password)");
        }
    }

    @Test
    void reportsNothingWhenTheRequestSucceeds() throws IOException {
        try (ServerSocket broker = listening()) {
            assertThat(BrokerReachability.check("127.0.0.1:" + broker.getLocalPort(), TIMEOUT, () -> "cluster-id"))
                    .isEmpty();
        }
    }

    @Test
    void neverRunsTheRequestWhenNoAddressAccepts() throws IOException {
        String address = closedPort();

        assertThat(BrokerReachability.check(address, TIMEOUT, () -> {
            throw new AssertionError("the Kafka request ran");
        })).contains("kafka " + address + ": connection refused");
    }
    @Test
    void triesATlsHandshakeWhenAClientThatSpeaksTlsGotNoAnswer() throws Exception {
        try (ServerSocket plain = listening()) {
            Thread closer = new Thread(() -> { // a listener that does not speak TLS: reads a little, then closes
                for (int i = 0; i < 2; i++) { // the TCP check, then the TLS probe
                    try (var s = plain.accept()) {
                        s.getInputStream().read(new byte[16]);
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            closer.start();
            String bootstrap = "127.0.0.1:" + plain.getLocalPort();

            assertThat(BrokerReachability.check(bootstrap, true, TIMEOUT, () -> {
                throw new ExecutionException(new TimeoutException("Timed out waiting for a node assignment."));
            })).contains("kafka " + bootstrap + ": TLS handshake failed (Remote host terminated the handshake)");
            closer.join();
        }
    }
}
