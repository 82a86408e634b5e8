package io.siteflow.kafka;

import io.siteflow.model.cli.Secrets;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Extra Kafka client properties given by the user ({@code --kafka K=V}, or a properties file), passed
 * through to the producer unchanged. Stateless, thread-safe.
 */
public final class KafkaClientProperties {
    private KafkaClientProperties() {
    }

    /**
     * Parses {@code KEY=VALUE} options in order (a later key wins).
     *
     * @throws IllegalArgumentException {@code --kafka "foo": expected KEY=VALUE} for an option without
     *                                  {@code =} or with an empty key
     */
    public static Map<String, String> parse(List<String> options) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String o : options) {
            int eq = o.indexOf('=');
            if (eq <= 0 || o.substring(0, eq).isBlank()) {
                throw new IllegalArgumentException("--kafka \"" + o + "\": expected KEY=VALUE");
            }
            out.put(o.substring(0, eq).trim(), o.substring(eq + 1));
        }
        return out;
    }

    /**
     * Reads a Java properties file (UTF-8).
     *
     * @throws IOException with the file name when it cannot be read
     */
    public static Map<String, String> load(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException(file + ": cannot read Kafka properties: " + e.getMessage(), e);
        }
        Map<String, String> out = new LinkedHashMap<>();
        p.stringPropertyNames().stream().sorted().forEach(k -> out.put(k, p.getProperty(k)));
        return out;
    }

    /** {@code k=v, ...} in key order, secret values masked ({@link Secrets#describe}). */
    public static String describe(Map<String, ?> config) {
        return Secrets.describe(config);
    }
}
