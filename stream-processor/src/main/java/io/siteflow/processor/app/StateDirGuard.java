package io.siteflow.processor.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.Topology;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an application's state directory fit for the cluster it meets ({@link LocalState}): before a Kafka Streams
 * instance starts, discards state of another cluster or of recreated topics, or only the global stores when
 * retention passed them; records the origin once the instance runs and the global topics' end offsets when it
 * stopped cleanly. Each step logs one WARN line when it acts or cannot check; none throws. Thread-safe.
 */
final class StateDirGuard {
    private static final Logger LOG = LoggerFactory.getLogger(StateDirGuard.class);
    private final Map<String, Object> client;
    private final Path stateDir;
    private final String applicationId;

    /**
     * @param client        admin client properties (bootstrap, security)
     * @param stateDir      the Kafka Streams state directory ({@code --state-dir})
     * @param applicationId the application id, whose state is {@code stateDir/applicationId}
     */
    StateDirGuard(Map<String, Object> client, Path stateDir, String applicationId) {
        this.client = Map.copyOf(client);
        this.stateDir = stateDir;
        this.applicationId = applicationId;
    }

    private Path appDir() {
        return stateDir.resolve(applicationId);
    }

    /**
     * Discards the application's local state when it belongs to another cluster or to recreated topics (through
     * {@link KafkaStreams#cleanUp()}, so {@code streams} must not be started), and the global stores' when retention
     * deleted records of their topics they had not read. Keeps the state when Kafka cannot be asked.
     */
    void prepare(KafkaStreams streams, Topology built) {
        try (Admin admin = Admin.create(client)) {
            Optional<StateOrigin> recorded = StateOrigin.read(appDir());
            Optional<String> why = recorded.flatMap(o -> o.mismatch(LocalState.current(admin, built,
                    applicationId), stateDir));
            if (why.isPresent()) {
                LOG.warn(why.get());
                Files.deleteIfExists(appDir().resolve(StateOrigin.FILE));
                streams.cleanUp();
                deleteGlobal();
                return;
            }
            Optional<String> behind = recorded.flatMap(o -> LocalState.globalBehind(admin, o, stateDir));
            if (behind.isPresent()) {
                LOG.warn(behind.get());
                deleteGlobal();
            }
        } catch (RuntimeException | IOException e) {
            LOG.warn("cannot check where the local state in {} came from ({}); keeping it", stateDir, e.getMessage());
        }
    }

    /** Removes the global stores' state (Kafka Streams keeps it in {@code APP_DIR/global}). */
    private void deleteGlobal() throws IOException {
        Path global = appDir().resolve("global");
        if (Files.exists(global)) {
            StaleTaskDirs.deleteTree(global);
        }
    }

    /** Records where the local state now comes from (once Kafka Streams runs: its internal topics exist). */
    void recordOrigin(Topology built) {
        try (Admin admin = Admin.create(client)) {
            LocalState.current(admin, built, applicationId).write(appDir());
        } catch (RuntimeException e) {
            LOG.warn("cannot record where the local state comes from: {}", e.getMessage());
        }
    }

    /**
     * Records how far the global stores can have read their topics (the topics' end offsets now that Kafka Streams
     * stopped), so that the next start sees when retention deleted records they had not read.
     */
    void recordGlobalEnds(Topology built) {
        try (Admin admin = Admin.create(client)) {
            Optional<StateOrigin> recorded = StateOrigin.read(appDir());
            if (recorded.isPresent()) {
                recorded.get().withGlobalEnds(LocalState.ends(admin, LocalState.globalTopics(built),
                        Duration.ofSeconds(5))).write(appDir());
            }
        } catch (RuntimeException e) {
            LOG.warn("cannot record how far the global stores read: {}", e.getMessage());
        }
    }
}
