package io.siteflow.broker;

import java.io.IOException;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kafka node in KRaft mode (broker and controller in one process): a single-node broker for the demo, tests
 * and small sites, or one node of a cluster whose every node has both roles ({@link Builder#quorum}). Storage is
 * formatted on the first start (when {@code meta.properties} is missing) with the given cluster id, or a random one,
 * and kept in the data directory, so a restart on the same directory keeps topics and records; a directory formatted
 * for another cluster or node id is refused. Both ports are chosen before start (free ones unless given); the broker
 * listens on 127.0.0.1 unless told otherwise.
 *
 * <p>Life cycle: {@link #start()} once, then {@link #close()}; a closed broker cannot be started
 * again (make a new one on the same directory). {@code start} and {@code close} are synchronized;
 * the getters are thread-safe. Two brokers must not share a data directory (Kafka locks it).
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

    private final String host;
    private final Path dataDir;
    private final int port;
    private final int controllerPort;
    private final Duration startTimeout;
    private final Properties overrides;
    private final KraftQuorum quorum;
    private final KraftQuorum.HostPort advertised;
    private final String clusterId;
    private final List<String> scram;
    private final Map<String, Object> selfClient;
    private KafkaRaftServer server;
    private boolean closed;

    private EmbeddedKafkaBroker(Builder b) {
        this.host = b.host;
        this.dataDir = b.dataDir;
        this.port = b.port == 0 ? Ports.free(b.host) : b.port;
        if (b.quorum != null) {
            this.quorum = b.quorum;
            this.controllerPort = b.quorum.self().port();
        } else {
            int cport = b.controllerPort == 0 ? Ports.free(b.host) : b.controllerPort;
            while (cport == port) {
                cport = Ports.free(b.host);
            }
            this.controllerPort = cport;
            this.quorum = KraftQuorum.single(b.host, cport);
        }
        this.advertised = b.advertised != null ? b.advertised : new KraftQuorum.HostPort(b.host, port);
        this.clusterId = b.clusterId;
        this.scram = List.copyOf(b.scram);
        this.startTimeout = b.startTimeout;
        this.overrides = (Properties) b.overrides.clone();
        Map<String, Object> c = BrokerSettings.selfClient(BrokerSettings.of(quorum,
                new KraftQuorum.HostPort(host, port), advertised, dataDir, overrides));
        c.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
        this.selfClient = Map.copyOf(c);
    }

    /** A builder for a broker that keeps its data in {@code dataDir} (created when missing). */
    public static Builder builder(Path dataDir) {
        return new Builder(dataDir);
    }

    /**
     * Formats the storage if needed, starts the broker and returns once it answers an admin
     * {@code describeCluster}.
     *
     * @throws BrokerStartException when a port is in use, the directory cannot be used, or the
     *                              broker did not answer within the start timeout
     * @throws IllegalStateException when started twice or after close
     */
    public synchronized void start() {
        if (server != null || closed) {
            throw new IllegalStateException("broker already started or closed");
        }
        long t0 = System.nanoTime();
        Ports.requireFree(host, port, "broker");
        Ports.requireFree(quorum.self().host(), controllerPort, "controller");
        Properties props = BrokerSettings.of(quorum, new KraftQuorum.HostPort(host, port), advertised, dataDir,
                overrides);
        KafkaConfig config;
        try {
            config = new KafkaConfig(props, false);
        } catch (ConfigException e) {
            throw new BrokerStartException("broker settings refused: " + e.getMessage(), e);
        }
        formatIfNeeded();
        requireUnlocked();
        ExitGuard guard = new ExitGuard("broker on " + bootstrap());
        try {
            server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
        } catch (RuntimeException e) {
            if (server != null) {
                stopQuietly();
            }
            throw new BrokerStartException("broker on " + bootstrap() + " (data " + dataDir
                    + ") failed to start: " + e.getMessage(), e);
        } finally {
            guard.close();
        }
        awaitReady();
        LOG.info("kafka broker up on {} (node {} of {}, controller {}, data {}) in {} ms", bootstrap(),
                quorum.nodeId(), quorum.spelled(), quorum.self(), dataDir,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
    }

    /** {@code host:port} of the client listener, e.g. {@code 127.0.0.1:39092}; known before start. */
    public String bootstrap() {
        return new KraftQuorum.HostPort(host, port).toString();
    }

    /**
     * Client properties for admin calls to this node: its client listener's address and security (the inter-broker
     * login and trust store when {@code --broker-config} secures it).
     */
    public Map<String, Object> clientConfig() {
        return selfClient;
    }

    /** The address clients are told to use ({@code --advertised}; the listen address unless given). */
    public String advertised() {
        return advertised.toString();
    }

    /** The controller quorum this node belongs to (a one-node quorum for a single-node broker). */
    public KraftQuorum quorum() {
        return quorum;
    }

    /** The client port. */
    public int port() {
        return port;
    }

    /** The KRaft controller port (named in {@code controller.quorum.voters}). */
    public int controllerPort() {
        return controllerPort;
    }

    /** The data directory (log and metadata directory). */
    public Path dataDir() {
        return dataDir;
    }

    /** Shuts the broker down and waits for it; idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        if (server != null) {
            long t0 = System.nanoTime();
            stopQuietly();
            LOG.info("kafka broker on {} stopped in {} ms", bootstrap(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
        }
    }

    private void stopQuietly() {
        KafkaRaftServer s = server;
        server = null;
        try {
            s.shutdown();
            s.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("kafka broker on {}: error during shutdown: {}", bootstrap(), e.toString());
        }
    }

    private void formatIfNeeded() {
        try {
            Files.createDirectories(dataDir);
            Path meta = dataDir.resolve("meta.properties");
            if (Files.exists(meta)) {
                requireSameIdentity(meta);
                return;
            }
            String dir = dataDir.toAbsolutePath().toString();
            String id = clusterId != null ? clusterId : Uuid.randomUuid().toString();
            new Formatter()
                    .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                    .setNodeId(quorum.nodeId())
                    .setClusterId(id)
                    .setControllerListenerName(BrokerSettings.CONTROLLER_LISTENER)
                    .setMetadataLogDirectory(dir)
                    .setDirectories(List.of(dir))
                    .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
                    .setScramArguments(scram)
                    .run();
            LOG.info("formatted kafka storage in {} for cluster {}, node {}", dataDir, id, quorum.nodeId());
        } catch (IOException e) {
            throw new BrokerStartException("cannot create data directory " + dataDir + ": " + e.getMessage(), e);
        } catch (BrokerStartException e) {
            throw e;
        } catch (Exception e) {
            throw new BrokerStartException("cannot format kafka storage in " + dataDir + ": " + e.getMessage(), e);
        }
    }

    /**
     * A data directory formatted for another cluster or node would have Kafka end the JVM (or, for another node id,
     * join the quorum as the wrong voter): refuse it first, naming both ids.
     */
    private void requireSameIdentity(Path meta) throws IOException {
        Properties stored = new Properties();
        try (var in = Files.newBufferedReader(meta)) {
            stored.load(in);
        }
        String storedCluster = stored.getProperty("cluster.id");
        if (clusterId != null && !clusterId.equals(storedCluster)) {
            throw new BrokerStartException("data directory " + dataDir + " belongs to cluster " + storedCluster
                    + ", not " + clusterId + " (--cluster-id): give that cluster's id, or another --data-dir for a "
                    + "new cluster");
        }
        String storedNode = stored.getProperty("node.id");
        if (storedNode != null && !storedNode.equals(Integer.toString(quorum.nodeId()))) {
            throw new BrokerStartException("data directory " + dataDir + " belongs to node " + storedNode
                    + ", not " + quorum.nodeId() + " (--node-id): each node keeps its own directory");
        }
    }

    /** Kafka's own check would end the JVM: refuse a directory another broker has locked first. */
    private void requireUnlocked() {
        Path lock = dataDir.resolve(".lock");
        try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock();
            if (l == null) {
                throw new BrokerStartException("data directory " + dataDir + " is in use by another broker");
            }
            l.release();
        } catch (OverlappingFileLockException e) {
            throw new BrokerStartException("data directory " + dataDir + " is in use by another broker", e);
        } catch (IOException e) {
            throw new BrokerStartException("cannot lock data directory " + dataDir + ": " + e.getMessage(), e);
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + startTimeout.toNanos();
        Map<String, Object> conf = new java.util.HashMap<>(selfClient);
        conf.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        conf.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        try (Admin admin = Admin.create(conf)) {
            while (true) {
                long left = deadline - System.nanoTime();
                try {
                    if (!admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) Math.max(1,
                            TimeUnit.NANOSECONDS.toMillis(left)))).nodes().get(left, TimeUnit.NANOSECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    if (System.nanoTime() >= deadline) {
                        stopQuietly();
                        throw new BrokerStartException("broker on " + bootstrap() + " did not answer within "
                                + startTimeout.toSeconds() + " s", e);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopQuietly();
                    throw new BrokerStartException("interrupted while waiting for the broker on " + bootstrap(), e);
                }
                if (System.nanoTime() >= deadline) {
                    stopQuietly();
                    throw new BrokerStartException("broker on " + bootstrap() + " has no live node after "
                            + startTimeout.toSeconds() + " s");
                }
            }
        }
    }

    /** Settings of an {@link EmbeddedKafkaBroker}; not thread-safe. */
    public static final class Builder {
        private final Path dataDir;
        private String host = "127.0.0.1";
        private int port;
        private int controllerPort;
        private Duration startTimeout = Duration.ofSeconds(60);
        private final Properties overrides = new Properties();
        private KraftQuorum quorum;
        private KraftQuorum.HostPort advertised;
        private String clusterId;
        private final List<String> scram = new ArrayList<>();

        private Builder(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
        }

        /** The address both listeners bind to; default 127.0.0.1. */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The client port, 0 (default) for a free one. */
        public Builder port(int port) {
            this.port = checkPort(port, "port");
            return this;
        }

        /** The controller port, 0 (default) for a free one. */
        public Builder controllerPort(int port) {
            this.controllerPort = checkPort(port, "controller port");
            return this;
        }

        /** How long {@link #start()} waits for the broker to answer; default 60 s. */
        public Builder startTimeout(Duration timeout) {
            this.startTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /**
         * Makes this node one of a cluster: its id and the voters (its controller listens on its own voter entry,
         * so {@link #controllerPort} no longer applies). Without it the broker is a one-node cluster.
         */
        public Builder quorum(KraftQuorum quorum) {
            this.quorum = Objects.requireNonNull(quorum, "quorum");
            return this;
        }

        /** The address clients are told to connect to; default the listen address. */
        public Builder advertised(KraftQuorum.HostPort advertised) {
            this.advertised = Objects.requireNonNull(advertised, "advertised");
            return this;
        }

        /**
         * The cluster id the storage is formatted with on first start (the same on every node) and that a formatted
         * directory must carry; default a random one for a new single-node broker, and no check.
         *
         * @throws IllegalArgumentException when {@code id} is not a Kafka cluster id (22 characters of base64url)
         */
        public Builder clusterId(String id) {
            try {
                Uuid.fromString(id);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--cluster-id: '" + id + "' is not a Kafka cluster id (22 "
                        + "characters of base64url, e.g. from 'kafka-storage random-uuid'): " + e.getMessage(), e);
            }
            this.clusterId = id;
            return this;
        }

        /**
         * SCRAM credentials written into the storage when it is formatted, in {@code kafka-storage format
         * --add-scram} syntax ({@code SCRAM-SHA-512=[name=alice,password=...]}): the users exist before the first
         * client connects.
         */
        public Builder scram(String credential) {
            scram.add(Objects.requireNonNull(credential, "credential"));
            return this;
        }

        /** Any Kafka server property, applied after the single-node defaults. */
        public Builder property(String key, String value) {
            overrides.put(key, value);
            return this;
        }

        /** The broker; its ports are fixed now (free ones picked when 0). */
        public EmbeddedKafkaBroker build() {
            if (quorum == null && port != 0 && port == controllerPort) {
                throw new IllegalArgumentException("port and controller port must differ, both are " + port);
            }
            return new EmbeddedKafkaBroker(this);
        }

        private static int checkPort(int port, String what) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException(what + " " + port + " is not a port (0-65535)");
            }
            return port;
        }
    }
}
