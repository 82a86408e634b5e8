package io.siteflow.kafka;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Whether a listener speaks TLS at all, for {@link BrokerReachability}: one handshake with the first bootstrap
 * address that accepts a TCP connection. The certificate is not checked and no byte of data is sent: this only
 * tells "the other end does not complete a TLS handshake" from "Kafka did not answer" (certificate problems are
 * Kafka's own {@code SslAuthenticationException}, recognised by {@link BrokerReachability}). Stateless.
 */
final class TlsProbe {
    /** Accepts any certificate: the probe never trusts the connection with data. */
    private static final X509TrustManager ANY = new X509TrustManager() {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    };

    private TlsProbe() {
    }

    /** Null when the first reachable address completes a TLS handshake (or none is reachable), else why not. */
    static String handshakeProblem(String bootstrap, Duration timeout) {
        for (String address : bootstrap.split(",")) {
            String a = address.trim();
            int colon = a.lastIndexOf(':');
            if (colon <= 0) {
                continue;
            }
            String host = a.substring(0, colon).replace("[", "").replace("]", "");
            try {
                return handshake(new InetSocketAddress(host, Integer.parseInt(a.substring(colon + 1))), timeout);
            } catch (NumberFormatException | IOException e) {
                continue; // not reachable: the next address
            }
        }
        return null;
    }

    /** Null when the handshake completes; the reason when it fails; throws when no TCP connection is made. */
    private static String handshake(InetSocketAddress address, Duration timeout) throws IOException {
        SSLContext context;
        try {
            context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {ANY}, null);
        } catch (GeneralSecurityException e) {
            return null;
        }
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.connect(address, (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            try {
                socket.startHandshake();
                return null;
            } catch (SocketTimeoutException e) {
                return "no answer to a TLS hello within " + timeout.toSeconds() + " s";
            } catch (IOException e) {
                return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            }
        }
    }
}
