package io.siteflow.processor.app;

import io.siteflow.model.cli.Secrets;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.processor.topology.TopologyConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Everything {@code siteflow process} runs with, validated by the command. Immutable.
 *
 * @param bootstrap      Kafka bootstrap servers {@code host:port[,...]}
 * @param sitesFile      the site model file
 * @param httpPort       HTTP port, 0 for none
 * @param httpBind       HTTP bind address
 * @param advertisedHost host name other instances reach this one at (with {@code httpPort}: {@code application.server})
 * @param httpToken      bearer token for the HTTP API, empty for none (a secret: masked in logs)
 * @param kafka          extra Kafka/Streams properties ({@code --kafka K=V}); they override the defaults
 * @param stateDir       Kafka Streams state directory
 * @param topology       the topology settings
 * @param topics         partitions and replication of the siteflow topics created at start when missing; the
 *                       replication factor also applies to the Streams internal topics unless {@code --kafka}
 *                       sets {@code replication.factor}
 * @param httpAllowedHosts names besides the bind address, {@code localhost} and {@code advertisedHost} that HTTP
 *                       clients may give as {@code Host} ({@code --http-allowed-host})
 */
public record ProcessorSettings(String bootstrap, Path sitesFile, int httpPort, String httpBind,
                                String advertisedHost, String httpToken, Map<String, String> kafka, Path stateDir,
                                TopologyConfig topology, SiteflowTopics topics, List<String> httpAllowedHosts) {
    /** Without further HTTP host names. */
    public ProcessorSettings(String bootstrap, Path sitesFile, int httpPort, String httpBind, String advertisedHost,
                             String httpToken, Map<String, String> kafka, Path stateDir, TopologyConfig topology,
                             SiteflowTopics topics) {
        this(bootstrap, sitesFile, httpPort, httpBind, advertisedHost, httpToken, kafka, stateDir, topology, topics,
                List.of());
    }

    public ProcessorSettings {
        Objects.requireNonNull(bootstrap, "bootstrap");
        Objects.requireNonNull(sitesFile, "sitesFile");
        Objects.requireNonNull(httpBind, "httpBind");
        Objects.requireNonNull(advertisedHost, "advertisedHost");
        Objects.requireNonNull(httpToken, "httpToken");
        Objects.requireNonNull(stateDir, "stateDir");
        Objects.requireNonNull(topology, "topology");
        Objects.requireNonNull(topics, "topics");
        kafka = Map.copyOf(kafka);
        httpAllowedHosts = List.copyOf(httpAllowedHosts);
    }

    /** The names HTTP clients may give as {@code Host} besides the bind address and {@code localhost}. */
    public List<String> allowedHosts() {
        List<String> out = new java.util.ArrayList<>(httpAllowedHosts);
        if (!out.contains(advertisedHost)) {
            out.add(0, advertisedHost);
        }
        return List.copyOf(out);
    }

    /** These settings with other topic partitions and replication. */
    public ProcessorSettings withTopics(SiteflowTopics other) {
        return new ProcessorSettings(bootstrap, sitesFile, httpPort, httpBind, advertisedHost, httpToken, kafka,
                stateDir, topology, other, httpAllowedHosts);
    }

    /** Standby copies of each task's state on other instances unless {@code --kafka num.standby.replicas=} says. */
    public static final int STANDBY_REPLICAS = 1;

    /**
     * How long the Streams producer waits for the broker (a commit of the exactly-once transaction, a send) unless
     * {@code --kafka producer.max.block.ms=} says: a commit rides out a broker outage up to this long and completes
     * when the broker is back. With Kafka's 60 s a commit that times out makes the task "corrupted"; Kafka 4.4 then
     * closes it dirty and revives it, and can resume its partitions past records it had fetched or processed in the
     * aborted transaction (CommitThroughOutageIT; seen as BrokerOutageIT's lost record). Below the consumer's
     * {@code max.poll.interval.ms} (300 s in Kafka Streams) so the waiting member is not dropped from its group.
     */
    public static final long PRODUCER_MAX_BLOCK_MS = 240_000;

    /** Kafka Streams commits (and the queries see new state) this often unless {@code --kafka} says otherwise. */
    public static final long COMMIT_INTERVAL_MS = 500;

    /** The Kafka Streams properties: siteflow's defaults, then {@code --kafka} overrides. */
    public Properties streamsProperties() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, topology.applicationId());
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put("processing.exception.handler.global.enabled", "true");
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, String.valueOf(topics.replicationFactor()));
        // a standby keeps a copy of each task's stores on another instance: when an instance dies its tasks resume
        // there instead of restoring the changelogs from the start; with one instance Kafka Streams makes none
        p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, String.valueOf(STANDBY_REPLICAS));
        // under exactly-once a store keeps no checkpoint while it runs, so when an instance dies Kafka Streams wipes
        // the survivor's standby copy ("did not find checkpoint offsets while stores are not empty") and restores the
        // task from its changelogs' start; transactional stores (KIP-892) hold a transaction's writes until its commit
        // and keep their committed offsets, so the standby's copy is kept (ThreeProcessorsKillIT, docs/OPERATIONS.md)
        p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, "true");
        // a task reads siteflow.flows (timestamped by arrival) and by-server (by event time): waiting for one to
        // order records by timestamp across both means nothing here, and the check formats log text for every
        // record when one of them is empty (5% of the stream thread in bench/streams.sh)
        // exactly-once commits every 100 ms by default; 500 ms measured 67 k records/s against 53 k with export ->
        // verdict p99 626 ms against 264 ms (docs/BENCHMARKS.md); 1 s gained nothing more
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, String.valueOf(COMMIT_INTERVAL_MS));
        p.put(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, String.valueOf(StreamsConfig.MAX_TASK_IDLE_MS_DISABLED));
        p.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_BLOCK_MS_CONFIG), String.valueOf(PRODUCER_MAX_BLOCK_MS));
        if (httpPort > 0) {
            p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, advertisedHost + ":" + httpPort);
        }
        p.putAll(kafka);
        return p;
    }

    /** The effective configuration for the start-up log line, secrets masked ({@link Secrets}). */
    public Map<String, String> describe() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("sites", sitesFile.toString());
        m.put("http", httpPort > 0 ? httpBind + ":" + httpPort : "off");
        m.put("http.token", httpToken.isEmpty() ? "none" : Secrets.MASK);
        m.put("http.hosts", String.join(",", allowedHosts()));
        m.put("window", topology.window().toString());
        m.put("grace", topology.grace().toString());
        m.put("dedupe.retention", topology.dedupeRetention().toString());
        m.put("history.retention", topology.historyRetention().toString());
        m.put("baseline", topology.baseline().toString());
        m.put("alert.repeat", topology.alertRepeat().toString());
        m.put("topics", topics.partitions() + " partitions, replication " + topics.replicationFactor());
        Properties p = streamsProperties();
        new TreeMap<>(p).forEach((k, v) -> m.put(k.toString(), Secrets.mask(k.toString(), v)));
        return m;
    }

    /** As {@link #describe()}: a record's own {@code toString} would print the token and Kafka secrets in clear. */
    @Override
    public String toString() {
        return "ProcessorSettings" + describe();
    }
}
