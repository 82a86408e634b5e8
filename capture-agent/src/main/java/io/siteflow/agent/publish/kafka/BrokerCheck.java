package io.siteflow.agent.publish.kafka;

import io.siteflow.kafka.BrokerReachability;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;

/**
 * Asks the cluster once, at start and in the background, whether it can be used: DNS, TCP, then a
 * {@code describeCluster} with the user's security settings, explained by {@link BrokerReachability} in one line
 * that names the address and what failed (connection refused, DNS, TLS handshake, authentication); then, when the
 * cluster answered, whether the agent's principal may write its topics ({@link AclCheck}: {@code kafka: principal
 * User:agent2 may not WRITE topic siteflow.flows (ACL)}). Known within a few times {@value #SECONDS} s, logged at
 * ERROR when something failed. Thread-safe.
 */
final class BrokerCheck {
    /** How a handshake failure begins when the listener wanted a client certificate (TLS 1.3, TLS 1.2). */
    private static final List<String> CERTIFICATE_WANTED = List.of("Failed to process post-handshake messages",
            "Received fatal alert: bad_certificate", "Received fatal alert: certificate_required");
    static final int SECONDS = 10;
    private static final Duration TIMEOUT = Duration.ofSeconds(SECONDS);

    private final CompletableFuture<Optional<String>> result;

    private BrokerCheck(CompletableFuture<Optional<String>> result) {
        this.result = result;
    }

    /** Starts the check on a daemon thread; a problem found is passed to {@code log}. */
    static BrokerCheck start(KafkaSinkConfig config, SinkLog log) {
        CompletableFuture<Optional<String>> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            boolean tls = String.valueOf(config.clientOverrides().get("security.protocol")).toUpperCase(Locale.ROOT)
                    .endsWith("SSL");
            Optional<String> problem = BrokerReachability.check(config.bootstrap(), tls, TIMEOUT,
                    () -> describe(config));
            problem = problem.isEmpty() ? acls(config) : withCertificateHint(problem, config.clientOverrides());
            problem.ifPresent(log::brokerProblem);
            f.complete(problem);
        }, "kafka-broker-check");
        t.setDaemon(true);
        t.start();
        return new BrokerCheck(f);
    }

    /** The problem found, waiting for the check to end (at most four times its timeout); empty when the cluster answered. */
    Optional<String> await() {
        try {
            return result.get(4L * SECONDS + 5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        }
    }

    /**
     * A TLS handshake refused to a client without a key store: over TLS 1.3 the client only learns after the
     * handshake ({@code Failed to process post-handshake messages}) that the listener wanted a certificate; over
     * TLS 1.2 the server's alert says so. Other handshake failures (e.g. TLS spoken to a plaintext listener:
     * {@code Remote host terminated the handshake}) get no hint: it would point the wrong way.
     */
    static Optional<String> withCertificateHint(Optional<String> problem, Map<String, String> client) {
        if (problem.isPresent() && CERTIFICATE_WANTED.stream().anyMatch(c -> problem.get().contains(
                ": TLS handshake failed (" + c))
                && !client.containsKey("ssl.keystore.location") && !client.containsKey("ssl.keystore.certificate.chain")) {
            return Optional.of(problem.get() + "; this client has no certificate (ssl.keystore.*), which a listener "
                    + "with ssl.client.auth=required refuses");
        }
        return problem;
    }

    private static String describe(KafkaSinkConfig config) throws Exception {
        try (Admin admin = Admin.create(adminProperties(config))) {
            return admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) TIMEOUT.toMillis())).clusterId()
                    .get(TIMEOUT.toMillis() + 2000, TimeUnit.MILLISECONDS);
        }
    }

    /** What {@link AclCheck} finds missing for the flow and heartbeat topics; empty when it cannot ask. */
    private static Optional<String> acls(KafkaSinkConfig config) {
        try (Admin admin = Admin.create(adminProperties(config))) {
            return AclCheck.missing(admin, List.of(config.topic(), HeartbeatPublisher.DEFAULT_TOPIC),
                    ClientPrincipal.describe(config.clientOverrides()), TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Map<String, Object> adminProperties(KafkaSinkConfig config) {
        Map<String, Object> props = new HashMap<>();
        config.clientOverrides().forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                props.put(k, v);
            }
        });
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrap());
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, config.clientId() + "-check");
        return props;
    }
}
