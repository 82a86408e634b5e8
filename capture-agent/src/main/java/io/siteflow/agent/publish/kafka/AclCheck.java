package io.siteflow.agent.publish.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;

/**
 * Asks the broker's authorizer what the agent's principal may do, and names what an agent needs and lacks:
 * {@code WRITE} on each of its topics, and {@code IDEMPOTENT_WRITE} on the cluster when no topic is writable (since
 * Kafka 3.0 {@code WRITE} on any topic implies it, KIP-679). The answer is one line such as
 * {@code kafka: principal User:agent2 may not WRITE topic siteflow.flows (ACL)}. What cannot be told (a topic
 * that does not exist yet, a broker that does not report authorized operations) is no finding. Stateless.
 */
final class AclCheck {
    private AclCheck() {
    }

    /**
     * @param principal how the principal is named ({@link ClientPrincipal#describe})
     * @return the missing operations, empty when none is known to be missing
     */
    static Optional<String> missing(Admin admin, List<String> topics, String principal, Duration timeout)
            throws InterruptedException {
        List<String> missing = new ArrayList<>();
        Map<String, KafkaFuture<TopicDescription>> described = admin.describeTopics(topics,
                new DescribeTopicsOptions().includeAuthorizedOperations(true).timeoutMs((int) timeout.toMillis()))
                .topicNameValues();
        for (String topic : topics) {
            if (!mayWrite(described.get(topic), timeout)) {
                missing.add("WRITE topic " + topic);
            }
        }
        if (missing.size() == topics.size() && !mayIdempotentWrite(admin, timeout)) {
            missing.add("IDEMPOTENT_WRITE cluster");
        }
        return missing.isEmpty() ? Optional.empty()
                : Optional.of("kafka: " + principal + " may not " + String.join(", ", missing) + " (ACL)");
    }

    /** False when the authorizer refuses to describe the topic or does not list WRITE for it. */
    private static boolean mayWrite(KafkaFuture<TopicDescription> f, Duration timeout) throws InterruptedException {
        try {
            Set<AclOperation> ops = f.get(timeout.toMillis(), TimeUnit.MILLISECONDS).authorizedOperations();
            return ops == null || ops.contains(AclOperation.WRITE) || ops.contains(AclOperation.ALL);
        } catch (ExecutionException e) {
            return !(e.getCause() instanceof AuthorizationException);
        } catch (TimeoutException e) {
            return true;
        }
    }

    private static boolean mayIdempotentWrite(Admin admin, Duration timeout) throws InterruptedException {
        try {
            Set<AclOperation> ops = admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true)
                    .timeoutMs((int) timeout.toMillis())).authorizedOperations().get(timeout.toMillis(),
                    TimeUnit.MILLISECONDS);
            return ops == null || ops.contains(AclOperation.IDEMPOTENT_WRITE) || ops.contains(AclOperation.ALL);
        } catch (ExecutionException | TimeoutException e) {
            return true;
        }
    }
}
