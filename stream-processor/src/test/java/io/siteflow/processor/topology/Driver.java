package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.processor.query.Cluster;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.LocalStoreView;
import io.siteflow.processor.query.StoreSource;
import io.siteflow.processor.query.StreamsQueries;
import io.siteflow.rules.verdict.PairAggregate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/** The topology in a {@link TopologyTestDriver} with its topics, for tests. */
final class Driver implements AutoCloseable {
    final TopologyTestDriver driver;
    final PipelineMetrics metrics = PipelineMetrics.unregistered();
    final ModelCache models = new ModelCache();
    final TestInputTopic<byte[], byte[]> flows;
    final TestInputTopic<String, String> sites;
    final TestInputTopic<String, String> agents;
    final TestOutputTopic<String, String> verdicts;
    final TestOutputTopic<String, String> alerts;
    final TestOutputTopic<byte[], String> dlq;
    final TestOutputTopic<String, String> isolation;
    private final TopologyConfig config;
    /** The driver's wall clock (starts where the constructor says, moved by {@link #advanceWallClock}). */
    private long wallMs;
    private final Clock wall = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(wallMs);
        }
    };

    Driver(TopologyConfig config, Path stateDir) {
        this(config, stateDir, Instant.now());
    }

    /**
     * With the processor's wall clock (the topology's and {@link #queries()}') starting at {@code wallClock}; it
     * moves only when a test advances it.
     */
    Driver(TopologyConfig config, Path stateDir, Instant wallClock) {
        this(config, stateDir, wallClock, SiteflowTopology.STAGES);
    }

    /** With {@code stages} attached after classification, as the product attaches {@link SiteflowTopology#STAGES}. */
    Driver(TopologyConfig config, Path stateDir, Instant wallClock, List<ClassifiedStage> stages) {
        this.config = config;
        this.wallMs = wallClock.toEpochMilli();
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        driver = new TopologyTestDriver(SiteflowTopology.build(config, models, metrics, stages), p, wallClock);
        flows = driver.createInputTopic(TopologySpec.FLOWS, new ByteArraySerializer(), new ByteArraySerializer());
        sites = driver.createInputTopic(TopologySpec.SITES, new StringSerializer(), new StringSerializer());
        agents = driver.createInputTopic(TopologySpec.AGENTS, new StringSerializer(), new StringSerializer());
        verdicts = driver.createOutputTopic(TopologySpec.VERDICTS, new StringDeserializer(), new StringDeserializer());
        alerts = driver.createOutputTopic(TopologySpec.ALERTS, new StringDeserializer(), new StringDeserializer());
        dlq = driver.createOutputTopic(TopologySpec.DLQ, new ByteArrayDeserializer(), new StringDeserializer());
        isolation = driver.createOutputTopic(io.siteflow.model.wire.Topics.ISOLATION, new StringDeserializer(),
                new StringDeserializer());
    }

    Driver(Path stateDir) {
        this(TopologyConfig.DEFAULTS, stateDir);
    }

    Driver withSites(String yaml) {
        sites.pipeInput(TopologySpec.SITES_KEY, yaml);
        return this;
    }

    /** Moves the wall clock of the driver and of {@link #queries()} on. */
    void advanceWallClock(java.time.Duration d) {
        wallMs += d.toMillis();
        driver.advanceWallClockTime(d);
    }

    void send(FlowRecord r) {
        flows.pipeInput(r.src().getBytes(StandardCharsets.UTF_8), FlowRecordJson.toBytes(r));
    }

    void send(Flows f) {
        send(f.build());
    }

    void sendRaw(String key, byte[] value) {
        flows.pipeInput(key.getBytes(StandardCharsets.UTF_8), value);
    }

    List<KeyValue<String, String>> verdicts() {
        return verdicts.readKeyValuesToList();
    }

    PairAggregate cumulative(String pairKey) {
        KeyValueStore<String, PairAggregate> s =
                driver.getKeyValueStore(TopologySpec.CUMULATIVE_STORE);
        return s.get(pairKey);
    }

    /** The query side over the driver's stores, as one instance. */
    StreamsQueries queries() {
        return queries(Cluster.SINGLE, InstanceClient.NONE);
    }

    /**
     * The query side over the driver's stores as one instance of several: {@code cluster} says where keys live,
     * {@code client} reaches the others. The driver holds the tasks of partition 0 only.
     */
    StreamsQueries queries(Cluster cluster, InstanceClient client) {
        StoreSource src = new StoreSource() {
            @Override
            public <V> ReadOnlyKeyValueStore<String, V> keyValue(String name) {
                return driver.getKeyValueStore(name);
            }

            @Override
            public <V> ReadOnlyKeyValueStore<String, V> keyValue(String name, int partition) {
                if (partition != 0) { // the test driver runs the task of partition 0 of each sub-topology
                    throw new org.apache.kafka.streams.errors.InvalidStateStorePartitionException(
                            "no task of partition " + partition + " here");
                }
                return driver.getKeyValueStore(name);
            }

            @Override
            public <V> ReadOnlyWindowStore<String, V> window(String name) {
                return driver.getWindowStore(name);
            }
        };
        return new StreamsQueries(new LocalStoreView(src, wall), cluster, client, models, () -> true, wall, config);
    }

    @Override
    public void close() {
        driver.close();
    }
}
