package io.siteflow.model.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The one function that masks secrets wherever siteflow prints a configuration value (start-up lines of the agent,
 * its Kafka producer and the stream processor, settings' {@code toString}). A key is secret when its name, in lower
 * case, contains one of {@link #HINTS}; its value is printed as {@link #MASK}.
 *
 * <p>The hints cover every Kafka client property of type {@code PASSWORD} (Kafka's own {@code ConfigDef}s of the
 * producer, consumer, admin client and Kafka Streams): this module has no Kafka, so tests in the modules that do
 * ({@code capture-agent}'s {@code KafkaPasswordKeysTest}, {@code stream-processor}'s {@code StreamsPasswordKeysTest})
 * ask those {@code ConfigDef}s and fail when a Kafka upgrade adds a {@code PASSWORD} key no hint covers. Beyond them
 * the hints cover keys, tokens, secrets and credentials of any name. Stateless, thread-safe.
 */
public final class Secrets {
    /** What a secret value is printed as. */
    public static final String MASK = "****";
    /**
     * Parts of a key name that mark its value as secret: passwords and passphrases ({@code ssl.key.password},
     * {@code ...private.key.passphrase}), JAAS and OAuth settings ({@code sasl.jaas.config}, {@code ...client.secret},
     * {@code ...token...}), credentials, PEM keys and certificates given inline ({@code ssl.keystore.key},
     * {@code ssl.keystore.certificate.chain}, {@code ssl.truststore.certificates}, {@code key.pem},
     * {@code private.key}), API keys ({@code api.key}, {@code apikey}).
     */
    public static final List<String> HINTS = List.of("password", "passphrase", "jaas", "secret", "token",
            "credential", "keystore.key", "key.pem", "private.key", "privatekey", "certificate", "api.key", "apikey");

    private Secrets() {
    }

    /** True when the value of {@code key} must not be printed. */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return HINTS.stream().anyMatch(k::contains);
    }

    /** {@code value} as it may be printed under {@code key}: {@link #MASK} for a secret key, else its text. */
    public static String mask(String key, Object value) {
        return isSecret(key) ? MASK : String.valueOf(value);
    }

    /** {@code k=v, ...} in key order, secret values masked; empty for an empty map. */
    public static String describe(Map<String, ?> config) {
        StringBuilder sb = new StringBuilder();
        new TreeMap<>(config).forEach((k, v) -> {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(k).append('=').append(mask(k, v));
        });
        return sb.toString();
    }
}
