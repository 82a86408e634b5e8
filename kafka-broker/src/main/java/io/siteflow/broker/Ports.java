package io.siteflow.broker;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Picks free TCP ports and checks that chosen ones are free. Stateless, thread-safe. */
final class Ports {
    private Ports() {
    }

    /** A port that was free on {@code host} a moment ago (the OS picks it). */
    static int free(String host) {
        try (ServerSocket s = bind(host, 0)) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new BrokerStartException("cannot find a free port on " + host + ": " + e.getMessage(), e);
        }
    }

    /** Throws a {@link BrokerStartException} naming {@code what} and the port when it cannot be bound. */
    static void requireFree(String host, int port, String what) {
        try (ServerSocket s = bind(host, port)) {
            s.getLocalPort();
        } catch (IOException e) {
            throw new BrokerStartException(what + " port " + port + " on " + host + " is in use ("
                    + e.getMessage() + ")", e);
        }
    }

    private static ServerSocket bind(String host, int port) throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
            return s;
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }
}
