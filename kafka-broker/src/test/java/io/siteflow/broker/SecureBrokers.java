package io.siteflow.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.awaitility.Awaitility;

/**
 * Brokers whose client listener is secured as in production, and their clients' properties, for the security
 * tests: SASL_SSL with SCRAM-SHA-512, or mutual TLS, each with a certificate from a {@link TestPki} and Kafka's
 * {@code StandardAuthorizer} (what no ACL allows is denied). Stateless.
 */
public final class SecureBrokers {
    /** Kafka's KRaft authorizer. */
    public static final String AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer";
    /**
     * The principal mapping of the mutual TLS broker (docs/OPERATIONS.md, "Security"): a client certificate
     * {@code CN=agent,OU=siteflow,...} is {@code User:agent}; any other subject keeps its whole DN.
     */
    public static final String MAPPING_RULES = "RULE:^CN=([^,]+),OU=siteflow(,.*)?$/$1/,DEFAULT";

    private SecureBrokers() {
    }

    /**
     * A SASL_SSL broker: SCRAM-SHA-512 users {@code admin} (super user, the broker's own login) and each of
     * {@code users} (name to password). The controller listener stays plaintext, where the broker registers as
     * {@code User:ANONYMOUS}, also a super user (production firewalls the controller port to the brokers).
     */
    public static EmbeddedKafkaBroker.Builder saslSsl(Path dataDir, TestPki pki, String adminPassword,
            Map<String, String> users) {
        EmbeddedKafkaBroker.Builder b = tls(EmbeddedKafkaBroker.builder(dataDir), pki)
                .property("listener.security.protocol.map", "CLIENT:SASL_SSL,CONTROLLER:PLAINTEXT")
                .property("sasl.enabled.mechanisms", "SCRAM-SHA-512")
                .property("sasl.mechanism.inter.broker.protocol", "SCRAM-SHA-512")
                .property("listener.name.client.scram-sha-512.sasl.jaas.config", jaas("admin", adminPassword))
                .property("super.users", "User:admin;User:ANONYMOUS")
                .scram("SCRAM-SHA-512=[name=admin,password=" + adminPassword + "]");
        users.forEach((name, password) -> b.scram("SCRAM-SHA-512=[name=" + name + ",password=" + password + "]"));
        return b;
    }

    /**
     * A mutual TLS broker: clients must show a certificate from the test CA ({@code ssl.client.auth=required}),
     * principals by {@link #MAPPING_RULES}. The controller listener speaks TLS with client certificates too, so the
     * broker registers with the controller as itself ({@code User:CN=localhost}), the one super user; no principal
     * is anonymous.
     */
    public static EmbeddedKafkaBroker.Builder mutualTls(Path dataDir, TestPki pki) {
        return tls(EmbeddedKafkaBroker.builder(dataDir), pki)
                .property("listener.security.protocol.map", "CLIENT:SSL,CONTROLLER:SSL")
                .property("ssl.client.auth", "required")
                .property("ssl.principal.mapping.rules", MAPPING_RULES)
                .property("super.users", "User:CN=localhost");
    }

    private static EmbeddedKafkaBroker.Builder tls(EmbeddedKafkaBroker.Builder b, TestPki pki) {
        return b.property("ssl.keystore.location", pki.keystore().toString())
                .property("ssl.keystore.type", "PKCS12")
                .property("ssl.keystore.password", pki.password())
                .property("ssl.truststore.location", pki.truststore().toString())
                .property("ssl.truststore.type", "PKCS12")
                .property("ssl.truststore.password", pki.password())
                .property("authorizer.class.name", AUTHORIZER);
    }

    /** The SCRAM login module's JAAS line for {@code user}. */
    public static String jaas(String user, String password) {
        return "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + user
                + "\" password=\"" + password + "\";";
    }

    /** Client properties: SASL_SSL with SCRAM-SHA-512 as {@code user}, trusting the test CA. */
    public static Map<String, String> scramClient(TestPki pki, String user, String password) {
        Map<String, String> c = trusting(pki, "SASL_SSL");
        c.put("sasl.mechanism", "SCRAM-SHA-512");
        c.put("sasl.jaas.config", jaas(user, password));
        return c;
    }

    /** Client properties: TLS with the key store {@link TestPki#clientKeystore} of {@code name}. */
    public static Map<String, String> certificateClient(TestPki pki, String name)
            throws IOException, InterruptedException {
        Map<String, String> c = trusting(pki, "SSL");
        c.put("ssl.keystore.location", pki.clientKeystore(name).toString());
        c.put("ssl.keystore.type", "PKCS12");
        c.put("ssl.keystore.password", pki.password());
        return c;
    }

    /** Client properties: {@code protocol} trusting the test CA, and no credentials of the client's own. */
    public static Map<String, String> trusting(TestPki pki, String protocol) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("security.protocol", protocol);
        c.put("ssl.truststore.location", pki.truststore().toString());
        c.put("ssl.truststore.type", "PKCS12");
        c.put("ssl.truststore.password", pki.password());
        return c;
    }

    /** {@code props} as a properties file (what {@code --kafka-config} reads). */
    public static Path write(Path file, Map<String, ?> props) throws IOException {
        StringBuilder sb = new StringBuilder();
        props.forEach((k, v) -> sb.append(k).append('=').append(String.valueOf(v).replace("\\", "\\\\")
                .replace("\n", "\\n")).append('\n'));
        return Files.writeString(file, sb);
    }

    /** Creates {@code acls} as the broker's super user and waits until the authorizer lists them all. */
    public static void grant(EmbeddedKafkaBroker broker, List<AclBinding> acls)
            throws InterruptedException, ExecutionException, TimeoutException {
        try (Admin admin = Admin.create(broker.clientConfig())) {
            int before = admin.describeAcls(AclBindingFilter.ANY).values().get(30, TimeUnit.SECONDS).size();
            admin.createAcls(acls).all().get(30, TimeUnit.SECONDS);
            // the broker's authorizer applies them from the metadata log a moment after the controller took them
            Awaitility.await("ACLs applied").atMost(Duration.ofSeconds(30)).until(() -> admin.describeAcls(
                    AclBindingFilter.ANY).values().get(10, TimeUnit.SECONDS).size() == before + acls.size());
        }
    }
}
