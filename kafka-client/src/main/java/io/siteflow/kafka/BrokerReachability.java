package io.siteflow.kafka;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;

/**
 * Why a Kafka cluster cannot be used, in one line that names the address tried and what failed: the one diagnosis
 * the agent and the processor print when the broker is unreachable (issue 12 point 5). JDK only: the caller runs
 * the Kafka request ({@code Admin.describeCluster()}) as a {@link Callable}. This class first resolves and connects
 * to each bootstrap address itself (DNS, refused, timed out: known in well under a second for the first two), and
 * only when one accepts runs the request and classifies its failure (TLS, authentication, no answer).
 *
 * <p>Messages, each starting with {@code kafka ADDRESS: } ({@code ADDRESS} the bootstrap text as given):
 * {@code connection refused}, {@code cannot resolve host name (DNS)}, {@code connection timed out after N s},
 * {@code no route to host}, {@code TLS handshake failed (...)}, {@code authentication failed (...)},
 * {@code not authorized (...)}, or
 * {@code no Kafka answer within N s (TCP connects; ...)}. Kafka's exceptions are recognised by class name (this
 * module has no Kafka): {@code SslAuthenticationException} and {@code SSLHandshakeException} as TLS,
 * other {@code ...AuthenticationException}s as authentication, {@code ...AuthorizationException}s as
 * authorisation. Stateless, thread-safe; {@link #check} blocks for at most about twice its timeout.
 */
public final class BrokerReachability {
    private BrokerReachability() {
    }

    /**
     * Resolves and connects to the bootstrap addresses, and when one accepts, runs {@code request} (a Kafka request
     * that waits at most {@code timeout}) and explains its failure.
     *
     * @return empty when the request succeeded, else the one-line diagnosis
     */
    public static Optional<String> check(String bootstrap, Duration timeout, Callable<?> request) {
        return check(bootstrap, false, timeout, request);
    }

    /**
     * As {@link #check(String, Duration, Callable)}; with {@code tls} (the client's {@code security.protocol} is
     * {@code SSL} or {@code SASL_SSL}) a request that got no answer is followed by a TLS handshake of this class's
     * own with the first address that accepts: a listener that does not speak TLS is then told as
     * {@code TLS handshake failed (...)} (Kafka's client only times out).
     */
    public static Optional<String> check(String bootstrap, boolean tls, Duration timeout, Callable<?> request) {
        Optional<String> tcp = unreachable(bootstrap, timeout);
        if (tcp.isPresent()) {
            return tcp;
        }
        try {
            request.call();
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("kafka " + bootstrap + ": interrupted");
        } catch (Exception e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            Optional<String> known = classify(bootstrap, cause);
            if (known.isPresent()) {
                return known;
            }
            if (cause.getClass().getSimpleName().equals("TimeoutException")) { // the JDK's or Kafka's
                String handshake = tls ? TlsProbe.handshakeProblem(bootstrap, timeout) : null;
                if (handshake != null) {
                    return Optional.of("kafka " + bootstrap + ": TLS handshake failed (" + handshake + ")");
                }
                return Optional.of("kafka " + bootstrap + ": no Kafka answer within " + timeout.toSeconds()
                        + " s (TCP connects; the listener may not speak Kafka, or its TLS/SASL settings differ from "
                        + "the client's)");
            }
            return Optional.of("kafka " + bootstrap + ": " + text(cause));
        }
    }

    /**
     * Resolves and connects to every address of {@code bootstrap} ({@code host:port,...}).
     *
     * @return empty when at least one address accepts a TCP connection, else what failed for each address
     */
    public static Optional<String> unreachable(String bootstrap, Duration timeout) {
        List<String> problems = new ArrayList<>();
        for (String address : bootstrap.split(",")) {
            String a = address.trim();
            if (a.isEmpty()) {
                continue;
            }
            String problem = tcpProblem(a, timeout);
            if (problem == null) {
                return Optional.empty();
            }
            problems.add(a + ": " + problem);
        }
        return problems.isEmpty() ? Optional.of("kafka: no bootstrap address")
                : Optional.of("kafka " + String.join("; ", problems));
    }

    /** Null when {@code host:port} accepts a TCP connection, else why not. */
    private static String tcpProblem(String address, Duration timeout) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            return "not HOST:PORT";
        }
        String host = address.substring(0, colon).replace("[", "").replace("]", "");
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            return "not HOST:PORT";
        }
        InetAddress ip;
        try {
            ip = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return "cannot resolve host name (DNS)";
        }
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(ip, port), (int) timeout.toMillis());
            return null;
        } catch (ConnectException e) {
            return "connection refused";
        } catch (SocketTimeoutException e) {
            return "connection timed out after " + timeout.toSeconds() + " s";
        } catch (NoRouteToHostException e) {
            return "no route to host";
        } catch (IOException | IllegalArgumentException e) {
            return text(e);
        }
    }

    /** TLS and authentication failures from anywhere in the cause chain. */
    private static Optional<String> classify(String bootstrap, Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            String name = t.getClass().getSimpleName();
            if (name.equals("SslAuthenticationException") || name.equals("SSLHandshakeException")) {
                return Optional.of("kafka " + bootstrap + ": TLS handshake failed (" + text(t) + ")");
            }
            if (name.endsWith("AuthenticationException")) {
                return Optional.of("kafka " + bootstrap + ": authentication failed (" + text(t) + ")");
            }
            if (name.endsWith("AuthorizationException")) {
                return Optional.of("kafka " + bootstrap + ": not authorized (" + text(t) + ")");
            }
        }
        return Optional.empty();
    }

    private static String text(Throwable t) {
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
