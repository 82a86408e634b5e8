package io.siteflow.agent.publish.kafka;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who the broker takes a client for, as far as the client's own properties tell: {@code User:NAME} for a SASL
 * login ({@code username="NAME"} in {@code sasl.jaas.config}, the SCRAM and PLAIN principal), the subject of the
 * client certificate for TLS with a key store (the broker's {@code ssl.principal.mapping.rules} turn it into the
 * principal), {@code User:ANONYMOUS} for plaintext or TLS without a client certificate. Never returns a secret.
 * Stateless.
 */
final class ClientPrincipal {
    private static final Pattern USERNAME = Pattern.compile("username\\s*=\\s*\"([^\"]*)\"");

    private ClientPrincipal() {
    }

    /** E.g. {@code principal User:agent2}, {@code principal of certificate "CN=agent2,O=siteflow"}. */
    static String describe(Map<String, String> client) {
        String protocol = client.getOrDefault("security.protocol", "PLAINTEXT").toUpperCase(Locale.ROOT);
        if (protocol.startsWith("SASL")) {
            Matcher m = USERNAME.matcher(client.getOrDefault("sasl.jaas.config", ""));
            return m.find() ? "principal User:" + m.group(1) : "this client's SASL principal";
        }
        if (protocol.equals("SSL")) {
            if (!client.containsKey("ssl.keystore.location") && !client.containsKey("ssl.keystore.certificate.chain")) {
                return "principal User:ANONYMOUS";
            }
            String subject = certificateSubject(client);
            return subject == null ? "the principal of this client's certificate"
                    : "principal of certificate \"" + subject + "\"";
        }
        return "principal User:ANONYMOUS";
    }

    /** The subject of the first key entry's certificate, or null when it cannot be read. */
    private static String certificateSubject(Map<String, String> client) {
        String type = client.getOrDefault("ssl.keystore.type", KeyStore.getDefaultType());
        String location = client.get("ssl.keystore.location");
        try {
            if (type.equalsIgnoreCase("PEM")) {
                String chain = client.get("ssl.keystore.certificate.chain");
                byte[] pem = chain != null ? chain.getBytes(StandardCharsets.UTF_8)
                        : location != null ? Files.readAllBytes(Path.of(location)) : null;
                return pem == null ? null : subject(CertificateFactory.getInstance("X.509")
                        .generateCertificate(new ByteArrayInputStream(pem)));
            }
            if (location == null) {
                return null;
            }
            KeyStore ks = KeyStore.getInstance(type);
            String password = client.get("ssl.keystore.password");
            try (InputStream in = Files.newInputStream(Path.of(location))) {
                ks.load(in, password == null ? null : password.toCharArray());
            }
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias)) {
                    return subject(ks.getCertificate(alias));
                }
            }
            return null;
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            return null;
        }
    }

    private static String subject(Certificate c) {
        return c instanceof X509Certificate x ? x.getSubjectX500Principal().getName() : null;
    }
}
