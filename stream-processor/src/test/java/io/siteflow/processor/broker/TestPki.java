package io.siteflow.processor.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority and a broker certificate for 127.0.0.1 and localhost, made with the JDK's
 * {@code keytool} in a test's directory: PKCS12 key and trust stores under one random password.
 *
 * @param keystore   the broker's key store (its key, its certificate signed by the CA, the CA)
 * @param truststore the CA's certificate alone, for clients and brokers
 * @param password   the stores' password
 */
public record TestPki(Path keystore, Path truststore, String password) {
    public static TestPki create(Path dir) throws IOException, InterruptedException {
        String pw = "store-" + UUID.randomUUID();
        Path ca = dir.resolve("ca.p12");
        Path caPem = dir.resolve("ca.pem");
        Path ks = dir.resolve("broker.p12");
        Path csr = dir.resolve("broker.csr");
        Path cert = dir.resolve("broker.pem");
        Path ts = dir.resolve("truststore.p12");
        keytool("-genkeypair", "-alias", "ca", "-dname", "CN=siteflow test CA", "-keyalg", "EC", "-groupname",
                "secp256r1", "-ext", "bc:c", "-validity", "2", "-keystore", ca.toString(), "-storetype", "PKCS12",
                "-storepass", pw);
        keytool("-exportcert", "-alias", "ca", "-keystore", ca.toString(), "-storepass", pw, "-rfc", "-file",
                caPem.toString());
        keytool("-genkeypair", "-alias", "broker", "-dname", "CN=localhost", "-keyalg", "EC", "-groupname",
                "secp256r1", "-validity", "2", "-keystore", ks.toString(), "-storetype", "PKCS12", "-storepass", pw);
        keytool("-certreq", "-alias", "broker", "-keystore", ks.toString(), "-storepass", pw, "-file", csr.toString());
        keytool("-gencert", "-alias", "ca", "-keystore", ca.toString(), "-storepass", pw, "-infile", csr.toString(),
                "-outfile", cert.toString(), "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-validity", "2", "-rfc");
        keytool("-importcert", "-alias", "ca", "-file", caPem.toString(), "-keystore", ks.toString(), "-storepass",
                pw, "-noprompt");
        keytool("-importcert", "-alias", "broker", "-file", cert.toString(), "-keystore", ks.toString(),
                "-storepass", pw);
        keytool("-importcert", "-alias", "ca", "-file", caPem.toString(), "-keystore", ts.toString(), "-storetype",
                "PKCS12", "-storepass", pw, "-noprompt");
        return new TestPki(ks, ts, pw);
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
