package io.siteflow.broker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority and a broker certificate for 127.0.0.1 and localhost, made with the JDK's
 * {@code keytool} in a test's directory: PKCS12 key and trust stores under one random password. It issues client
 * certificates too ({@link #clientKeystore}, {@link #clientPem}), with the subject
 * {@code CN=<name>,OU=siteflow,O=test}.
 *
 * @param keystore   the broker's key store (its key, its certificate signed by the CA, the CA); subject
 *                   {@code CN=localhost}
 * @param truststore the CA's certificate alone, for clients and brokers
 * @param password   the stores' password
 */
public record TestPki(Path keystore, Path truststore, String password) {
    /** Makes the CA, the broker's key store and the trust store in {@code dir}. */
    public static TestPki create(Path dir) throws IOException, InterruptedException {
        String pw = "store-" + UUID.randomUUID();
        Path ca = dir.resolve("ca.p12");
        Path caPem = dir.resolve("ca.pem");
        Path ts = dir.resolve("truststore.p12");
        keytool("-genkeypair", "-alias", "ca", "-dname", "CN=siteflow test CA", "-keyalg", "EC", "-groupname",
                "secp256r1", "-ext", "bc:c", "-validity", "2", "-keystore", ca.toString(), "-storetype", "PKCS12",
                "-storepass", pw);
        keytool("-exportcert", "-alias", "ca", "-keystore", ca.toString(), "-storepass", pw, "-rfc", "-file",
                caPem.toString());
        keytool("-importcert", "-alias", "ca", "-file", caPem.toString(), "-keystore", ts.toString(), "-storetype",
                "PKCS12", "-storepass", pw, "-noprompt");
        TestPki pki = new TestPki(dir.resolve("broker.p12"), ts, pw);
        pki.issue("broker", "CN=localhost", pki.keystore, "-ext", "SAN=IP:127.0.0.1,DNS:localhost");
        return pki;
    }

    /**
     * A PKCS12 key store ({@link #password}) with a client key and its certificate for {@code CN=<name>,OU=siteflow,
     * O=test} signed by the CA; made once per name.
     */
    public Path clientKeystore(String name) throws IOException, InterruptedException {
        Path ks = dir().resolve("client-" + name + ".p12");
        if (!Files.exists(ks)) {
            issue(name, subject(name), ks);
        }
        return ks;
    }

    /** The subject of {@link #clientKeystore}'s certificate, in the form Kafka's principal mapping rules see. */
    public static String subject(String name) {
        return "CN=" + name + ",OU=siteflow,O=test";
    }

    /**
     * The client key of {@link #clientKeystore} in PEM, as Kafka's {@code ssl.keystore.type=PEM} takes it inline.
     *
     * @param key   the unencrypted PKCS#8 private key ({@code ssl.keystore.key})
     * @param chain the certificate and the CA's ({@code ssl.keystore.certificate.chain})
     */
    public record Pem(String key, String chain) {
    }

    /** {@link #clientKeystore} as PEM text. */
    public Pem clientPem(String name) throws IOException, InterruptedException, GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(clientKeystore(name))) {
            ks.load(in, password.toCharArray());
        }
        StringBuilder chain = new StringBuilder();
        for (Certificate c : ks.getCertificateChain(name)) {
            chain.append(pem("CERTIFICATE", c.getEncoded()));
        }
        return new Pem(pem("PRIVATE KEY", ks.getKey(name, password.toCharArray()).getEncoded()), chain.toString());
    }

    private Path dir() {
        return truststore.getParent();
    }

    /** A key pair under {@code alias} in {@code ks}, its certificate signed by the CA, the chain imported. */
    private void issue(String alias, String dname, Path ks, String... ext) throws IOException, InterruptedException {
        Path ca = dir().resolve("ca.p12");
        Path csr = dir().resolve(alias + ".csr");
        Path cert = dir().resolve(alias + ".pem");
        keytool("-genkeypair", "-alias", alias, "-dname", dname, "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", "2", "-keystore", ks.toString(), "-storetype", "PKCS12", "-storepass", password);
        keytool("-certreq", "-alias", alias, "-keystore", ks.toString(), "-storepass", password, "-file",
                csr.toString());
        List<String> sign = new ArrayList<>(List.of("-gencert", "-alias", "ca", "-keystore", ca.toString(),
                "-storepass", password, "-infile", csr.toString(), "-outfile", cert.toString(), "-validity", "2",
                "-rfc"));
        sign.addAll(List.of(ext));
        keytool(sign.toArray(String[]::new));
        keytool("-importcert", "-alias", "ca", "-file", dir().resolve("ca.pem").toString(), "-keystore",
                ks.toString(), "-storepass", password, "-noprompt");
        keytool("-importcert", "-alias", alias, "-file", cert.toString(), "-keystore", ks.toString(), "-storepass",
                password);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("keytool " + args[0] + " failed: " + out);
        }
    }
}
