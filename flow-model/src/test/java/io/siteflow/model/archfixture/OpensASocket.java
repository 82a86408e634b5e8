package io.siteflow.model.archfixture;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Breaks the no-socket rule on purpose (a TCP connection): ArchitectureTest shows the rule fails. */
public final class OpensASocket {
    private OpensASocket() {
    }

    static void connect(String host, int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port));
        }
    }
}
