package io.siteflow.kafka;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The Kafka connection options, declared once for every command that talks to Kafka ({@code siteflow capture},
 * {@code process}, {@code topics check}): {@code @Mixin KafkaOptions kafkaOptions}. Same names, labels and help
 * everywhere. None of the three has a default. Filled by picocli, then read; not thread-safe.
 */
public final class KafkaOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--bootstrap", paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (HOST:PORT, comma-separated).")
    String bootstrap;

    @Option(names = "--kafka-config", paramLabel = "FILE",
            description = "Kafka client properties file (TLS, SASL); --kafka options override it.")
    Path config;

    @Option(names = "--kafka", paramLabel = "KEY=VALUE",
            description = "Extra Kafka client property, e.g. security.protocol=SASL_SSL (repeatable).")
    Map<String, String> properties = new LinkedHashMap<>();

    /** {@code --bootstrap}, or null when not given. */
    public String bootstrap() {
        return bootstrap;
    }

    /**
     * {@code --bootstrap} for a command that cannot work without it.
     *
     * @throws ParameterException {@code Missing required option: '--bootstrap=HOST:PORT'} (with the command's
     *                            separator, as picocli names a missing required option) when it was not given
     */
    public String requireBootstrap() {
        if (bootstrap == null) {
            throw new ParameterException(mixee.commandLine(), "Missing required option: '--bootstrap"
                    + mixee.parser().separator() + "HOST:PORT'");
        }
        return bootstrap;
    }

    /** {@code --kafka-config}, or null when not given. */
    public Path config() {
        return config;
    }

    /** The {@code --kafka} options in the order given (a later key won), unmodifiable. */
    public Map<String, String> properties() {
        return Collections.unmodifiableMap(properties);
    }

    /**
     * The client properties: the {@code --kafka-config} file's, then the {@code --kafka} options over them.
     *
     * @throws IllegalArgumentException {@code --kafka-config FILE: cannot read Kafka properties: ...} when the file
     *                                  cannot be read
     */
    public Map<String, String> clientProperties() {
        Map<String, String> out = new LinkedHashMap<>();
        if (config != null) {
            try {
                out.putAll(KafkaClientProperties.load(config));
            } catch (IOException e) {
                throw new IllegalArgumentException("--kafka-config " + e.getMessage(), e);
            }
        }
        out.putAll(properties);
        return out;
    }
}
