package io.siteflow.agent.publish.kafka;

import io.siteflow.model.wire.BrokerReachability;
import java.time.Duration;
import java.util.HashMap;
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
 * that names the address and what failed (connection refused, DNS, TLS handshake, authentication). Known within
 * {@value #SECONDS} s, logged at ERROR when something failed. Thread-safe.
 */
final class BrokerCheck {
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
            problem.ifPresent(log::brokerProblem);
            f.complete(problem);
        }, "kafka-broker-check");
        t.setDaemon(true);
        t.start();
        return new BrokerCheck(f);
    }

    /** The problem found, waiting for the check to end (at most twice its timeout); empty when the cluster answered. */
    Optional<String> await() {
        try {
            return result.get(2L * SECONDS + 5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        }
    }

    private static String describe(KafkaSinkConfig config) throws Exception {
        Map<String, Object> props = new HashMap<>();
        config.clientOverrides().forEach((k, v) -> {
            if (AdminClientConfig.configNames().contains(k)) {
                props.put(k, v);
            }
        });
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrap());
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, config.clientId() + "-check");
        try (Admin admin = Admin.create(props)) {
            return admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) TIMEOUT.toMillis())).clusterId()
                    .get(TIMEOUT.toMillis() + 2000, TimeUnit.MILLISECONDS);
        }
    }
}
