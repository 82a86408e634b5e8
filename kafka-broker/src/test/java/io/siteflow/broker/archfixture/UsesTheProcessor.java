package io.siteflow.broker.archfixture;

import java.util.Map;
import org.apache.kafka.streams.StreamsConfig;

/** Breaks the import rule on purpose (Kafka Streams, the processor's library): ArchitectureTest shows it fails. */
public final class UsesTheProcessor {
    private UsesTheProcessor() {
    }

    static StreamsConfig config(Map<String, Object> properties) {
        return new StreamsConfig(properties);
    }
}
