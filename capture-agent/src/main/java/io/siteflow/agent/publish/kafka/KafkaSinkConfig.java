package io.siteflow.agent.publish.kafka;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.cli.Secrets;
import io.siteflow.model.wire.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Settings of a {@link KafkaFlowSink}, validated when built. Immutable.
 *
 * @param bootstrap       Kafka bootstrap servers, {@code host:port[,host:port...]}
 * @param topic           the flow topic, {@code siteflow.flows} by default
 * @param clientId        the producer's client id
 * @param clientOverrides extra producer properties, applied over the defaults ({@code --kafka K=V})
 * @param keyFunction     the record key (the local server, see {@link io.siteflow.model.wire.FlowKeys}); may return null
 * @param spoolDir        directory of the disk spool
 * @param spoolMaxBytes   bound on the spool's files, 256 MiB by default
 * @param spoolSegmentBytes size of one spool file, 8 MiB by default (at most {@code spoolMaxBytes})
 * @param queueCapacity   records the hand-off queue holds, 65,536 by default
 * @param retryInterval   time between two probes of an unreachable broker, 1 s by default
 */
public record KafkaSinkConfig(String bootstrap, String topic, String clientId, Map<String, String> clientOverrides,
        Function<FlowRecord, String> keyFunction, Path spoolDir, long spoolMaxBytes, long spoolSegmentBytes,
        int queueCapacity, Duration retryInterval) {
    public static final String DEFAULT_TOPIC = Topics.FLOWS;

    public KafkaSinkConfig {
        Objects.requireNonNull(bootstrap, "bootstrap");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(keyFunction, "keyFunction");
        Objects.requireNonNull(spoolDir, "spoolDir");
        Objects.requireNonNull(retryInterval, "retryInterval");
        clientOverrides = Map.copyOf(clientOverrides);
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queue capacity must be at least 1, got " + queueCapacity);
        }
        if (spoolSegmentBytes < 64 || spoolSegmentBytes > spoolMaxBytes) {
            throw new IllegalArgumentException("spool segment size " + spoolSegmentBytes
                    + " must be between 64 and the spool limit " + spoolMaxBytes);
        }
    }

    /** The settings with the client overrides' secrets masked ({@link Secrets}), never a password in clear. */
    @Override
    public String toString() {
        return "KafkaSinkConfig[bootstrap=" + bootstrap + ", topic=" + topic + ", clientId=" + clientId
                + ", clientOverrides={" + Secrets.describe(clientOverrides) + "}, spoolDir=" + spoolDir
                + ", spoolMaxBytes=" + spoolMaxBytes + ", spoolSegmentBytes=" + spoolSegmentBytes
                + ", queueCapacity=" + queueCapacity + ", retryInterval=" + retryInterval + "]";
    }

    /** A builder with the defaults above; bootstrap and spool directory are required. */
    public static Builder builder(String bootstrap, Path spoolDir) {
        return new Builder(bootstrap, spoolDir);
    }

    /** Builder of {@link KafkaSinkConfig}; not thread-safe. */
    public static final class Builder {
        private final String bootstrap;
        private final Path spoolDir;
        private String topic = DEFAULT_TOPIC;
        private String clientId = "siteflow-agent";
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private Function<FlowRecord, String> keyFunction = FlowRecord::src;
        private long spoolMaxBytes = 256L << 20;
        private long spoolSegmentBytes = 8L << 20;
        private int queueCapacity = 65_536;
        private Duration retryInterval = Duration.ofSeconds(1);

        private Builder(String bootstrap, Path spoolDir) {
            this.bootstrap = bootstrap;
            this.spoolDir = spoolDir;
        }

        public Builder topic(String t) {
            this.topic = t;
            return this;
        }

        public Builder clientId(String id) {
            this.clientId = id;
            return this;
        }

        /** Adds producer properties (later calls win per key). */
        public Builder clientProperties(Map<String, String> props) {
            overrides.putAll(props);
            return this;
        }

        public Builder keyFunction(Function<FlowRecord, String> f) {
            this.keyFunction = f;
            return this;
        }

        /** Spool bound; the segment size becomes min(8 MiB, max / 4) unless set after this call. */
        public Builder spoolMaxBytes(long max) {
            this.spoolMaxBytes = max;
            this.spoolSegmentBytes = Math.max(64, Math.min(8L << 20, max / 4));
            return this;
        }

        public Builder spoolSegmentBytes(long bytes) {
            this.spoolSegmentBytes = bytes;
            return this;
        }

        public Builder queueCapacity(int capacity) {
            this.queueCapacity = capacity;
            return this;
        }

        public Builder retryInterval(Duration interval) {
            this.retryInterval = interval;
            return this;
        }

        public KafkaSinkConfig build() {
            return new KafkaSinkConfig(bootstrap, topic, clientId, overrides, keyFunction, spoolDir, spoolMaxBytes,
                    spoolSegmentBytes, queueCapacity, retryInterval);
        }
    }
}
