package io.siteflow.kafka.topics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the siteflow topics that do not exist yet. Idempotent: existing topics are left as they
 * are (their partitions and configs are not changed), and a topic created concurrently by another
 * instance counts as existing. Stateless, thread-safe.
 */
public final class TopicAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(TopicAdmin.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private TopicAdmin() {
    }

    /**
     * Connects to {@code bootstrap} and creates the missing topics of {@code spec}.
     *
     * @return the names of the topics created now (empty when all existed)
     * @throws TopicAdminException when the cluster does not answer within 30 s or refuses a topic
     */
    public static List<String> ensureTopics(String bootstrap, SiteflowTopics spec) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            return ensureTopics(admin, spec);
        }
    }

    /** As {@link #ensureTopics(String, SiteflowTopics)} with an admin client the caller owns. */
    public static List<String> ensureTopics(Admin admin, SiteflowTopics spec) {
        try {
            Set<String> existing = admin.listTopics().names().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (SiteflowTopics.Topic t : spec.topics()) {
                if (!existing.contains(t.name())) {
                    missing.add(new NewTopic(t.name(), t.partitions(), t.replicationFactor()).configs(t.configs()));
                }
            }
            List<String> created = new ArrayList<>();
            var result = admin.createTopics(missing);
            for (NewTopic t : missing) {
                if (create(result.values().get(t.name()), t.name())) {
                    created.add(t.name());
                }
            }
            if (!created.isEmpty()) {
                LOG.info("created topics {}", created);
            }
            return created;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicAdminException("interrupted while creating topics", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new TopicAdminException("cannot list topics: " + message(e), e);
        }
    }

    /**
     * The number of partitions of {@code topic}; empty when the topic does not exist.
     *
     * @throws TopicAdminException when the cluster does not answer within 30 s
     */
    public static OptionalInt partitions(Admin admin, String topic) {
        try {
            return OptionalInt.of(admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(topic).partitions().size());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TopicAdminException("interrupted while describing " + topic, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return OptionalInt.empty();
            }
            throw new TopicAdminException("cannot describe topic " + topic + ": " + message(e), e.getCause());
        } catch (TimeoutException e) {
            throw new TopicAdminException("cannot describe topic " + topic + ": " + message(e), e);
        }
    }

    private static boolean create(org.apache.kafka.common.KafkaFuture<Void> f, String name)
            throws InterruptedException, TimeoutException {
        try {
            f.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TopicExistsException) {
                return false;
            }
            throw new TopicAdminException("cannot create topic " + name + ": " + message(e), e.getCause());
        }
    }

    private static String message(Exception e) {
        Throwable c = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
        return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    }

    /** Topic creation failed; the message names the topic when one was refused. */
    public static final class TopicAdminException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TopicAdminException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
