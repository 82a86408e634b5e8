package io.siteflow.broker;

import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import java.io.PrintWriter;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the siteflow topics on a cluster once every voter has registered as a broker: replication factor 3 needs
 * three live brokers, and the nodes of a cluster start one after another. Every node does this; the first to see
 * the whole cluster creates the topics, the others find them existing. Stateless.
 */
final class ClusterTopics {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterTopics.class);
    private static final long POLL_MS = 1_000;

    private ClusterTopics() {
    }

    /**
     * Starts a daemon thread that waits until {@code broker}'s cluster has as many brokers as voters and then
     * creates the missing topics of {@code spec}; a failure is printed on {@code err} (the node keeps running:
     * {@code siteflow process} creates missing topics too).
     */
    static Thread createWhenAllJoin(EmbeddedKafkaBroker broker, SiteflowTopics spec, PrintWriter err) {
        int expected = broker.quorum().size();
        Thread t = new Thread(() -> {
            try (Admin admin = Admin.create(broker.clientConfig())) {
                int seen = 0;
                while (seen < expected) {
                    seen = brokers(admin);
                    if (seen < expected) {
                        LOG.info("{} of {} brokers registered; the siteflow topics are created when all are",
                                seen, expected);
                        Thread.sleep(POLL_MS);
                    }
                }
                TopicAdmin.ensureTopics(admin, spec);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                err.println("broker: siteflow topics not created: " + e.getMessage());
                err.flush();
            }
        }, "siteflow-cluster-topics");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static int brokers(Admin admin) throws InterruptedException {
        try {
            return admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size();
        } catch (ExecutionException | TimeoutException e) {
            return 0;
        }
    }
}
