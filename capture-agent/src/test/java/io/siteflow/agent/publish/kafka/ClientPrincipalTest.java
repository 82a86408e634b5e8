package io.siteflow.agent.publish.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientPrincipalTest {
    @TempDir
    Path dir;

    @Test
    void namesTheSaslUserAsKafkaDoes() {
        assertThat(ClientPrincipal.describe(Map.of("security.protocol", "SASL_SSL", "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"agent2\" "
                        + "password=\"s3cret\";"))).isEqualTo("principal User:agent2");
    }

    @Test
    void namesNoSecretWhenTheJaasLineHasNoUser() {
        assertThat(ClientPrincipal.describe(Map.of("security.protocol", "sasl_plaintext", "sasl.jaas.config",
                "x required password=\"s3cret\";"))).isEqualTo("this client's SASL principal");
    }

    @Test
    void plaintextAndTlsWithoutCertificateAreAnonymous() {
        assertThat(ClientPrincipal.describe(Map.of())).isEqualTo("principal User:ANONYMOUS");
        assertThat(ClientPrincipal.describe(Map.of("security.protocol", "SSL", "ssl.truststore.location", "/x")))
                .isEqualTo("principal User:ANONYMOUS");
    }

    @Test
    void namesTheSubjectOfTheClientCertificate() throws Exception {
        Path ks = dir.resolve("agent.p12");
        keytool("-genkeypair", "-alias", "agent", "-dname", "CN=agent2,OU=siteflow,O=test", "-keyalg", "EC",
                "-groupname", "secp256r1", "-validity", "2", "-keystore", ks.toString(), "-storetype", "PKCS12",
                "-storepass", "pw-123456");
        assertThat(ClientPrincipal.describe(Map.of("security.protocol", "SSL", "ssl.keystore.location", ks.toString(),
                "ssl.keystore.type", "PKCS12", "ssl.keystore.password", "pw-123456")))
                .isEqualTo("principal of certificate \"CN=agent2,OU=siteflow,O=test\"");
        assertThat(ClientPrincipal.describe(Map.of("security.protocol", "SSL", "ssl.keystore.location", ks.toString(),
                "ssl.keystore.type", "PKCS12", "ssl.keystore.password", "wrong")))
                .isEqualTo("the principal of this client's certificate");
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as(out).isTrue();
    }
}
