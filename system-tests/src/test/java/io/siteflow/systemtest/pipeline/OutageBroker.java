package io.siteflow.systemtest.pipeline;

import io.siteflow.broker.EmbeddedKafkaBroker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * One embedded broker that a test stops for an outage and starts again on the same ports and data directory, so
 * clients reconnect to the same address. {@link #close()} stops whichever instance runs.
 */
final class OutageBroker implements AutoCloseable {
    private final Path data;
    private final List<EmbeddedKafkaBroker> instances = new ArrayList<>();

    private OutageBroker(Path data) {
        this.data = data;
    }

    /** A started broker with its data under {@code data}. */
    static OutageBroker start(Path data) throws Exception {
        OutageBroker b = new OutageBroker(data);
        EmbeddedKafkaBroker first = EmbeddedKafkaBroker.builder(data).build();
        b.instances.add(first);
        first.start();
        return b;
    }

    String bootstrap() {
        return instances.get(0).bootstrap();
    }

    /** Stops the broker, waits {@code outage} (polling the clock), starts it again on the same ports. */
    void outage(Duration outage) throws Exception {
        EmbeddedKafkaBroker first = instances.get(0);
        first.close();
        long down = System.nanoTime();
        Awaitility.await().atMost(outage.plusSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> System.nanoTime() - down >= outage.toNanos());
        EmbeddedKafkaBroker again = EmbeddedKafkaBroker.builder(data).port(first.port())
                .controllerPort(first.controllerPort()).build();
        instances.add(again);
        again.start();
    }

    @Override
    public void close() {
        for (int i = instances.size() - 1; i >= 0; i--) {
            instances.get(i).close();
        }
    }
}
