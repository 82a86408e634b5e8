package io.siteflow.systemtest.pipeline;

import io.siteflow.lab.NetnsLab;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * TCP traffic between the test's own sockets across a {@link NetnsLab}: listeners on ports 1521 and 7001 in
 * namespace B that read and discard, and, from the calling thread's namespace (A), one long-lived connection
 * to each that sends a block every 20 ms, plus a short connection to 1521 every second (so flows also end).
 * Bounded: it stops on {@link #close()}.
 */
public final class SocketTraffic implements AutoCloseable {
    static final int DB_PORT = 1521;
    static final int T3_PORT = 7001;
    private final String server;
    private final List<ServerSocket> listeners = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();
    private final ScheduledExecutorService timer;
    private volatile boolean closed;

    private SocketTraffic(NetnsLab lab) throws Exception {
        this.server = lab.addressB();
        for (int port : new int[] {DB_PORT, T3_PORT}) {
            ServerSocket s = lab.call(lab.nsB(), () -> new ServerSocket(port, 50, InetAddress.getByName(server)));
            listeners.add(s);
            Thread t = new Thread(() -> accept(s), "traffic-accept-" + port);
            t.setDaemon(true);
            t.start();
        }
        timer = Executors.newScheduledThreadPool(1); // its thread starts in the caller's namespace
    }

    /** Starts the listeners in B and the senders in the calling thread's namespace. */
    public static SocketTraffic start(NetnsLab lab) throws Exception {
        SocketTraffic t = new SocketTraffic(lab);
        t.timer.submit(() -> t.connect(DB_PORT)).get();
        t.timer.submit(() -> t.connect(T3_PORT)).get();
        t.timer.scheduleAtFixedRate(() -> t.send(0, 1_400), 0, 20, TimeUnit.MILLISECONDS);
        t.timer.scheduleAtFixedRate(() -> t.send(1, 300), 5, 20, TimeUnit.MILLISECONDS);
        t.timer.scheduleAtFixedRate(t::shortConnection, 500, 1_000, TimeUnit.MILLISECONDS);
        return t;
    }

    /**
     * The site model of this traffic: site "local" holds the app server A, site "remote" the database B; port
     * {@value #DB_PORT} is DB, {@value #T3_PORT} CLUSTER.
     */
    public static String siteModel(NetnsLab lab) {
        return """
                threshold: 0.90
                minCrossBytes: 1000
                defaults: none
                sites:
                  local: { cidrs: [%1$s/32] }
                  remote: { cidrs: [%2$s/32] }
                hosts:
                  - { address: %2$s, name: db-b, role: db }
                  - { address: %1$s, name: app-a, role: app-server }
                rules:
                  - { name: oracle-ports, category: DB, ports: [1521] }
                  - { name: t3, category: CLUSTER, ports: [7001] }
                """.formatted(lab.addressA(), lab.addressB());
    }

    private Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(server, port), 5_000);
        synchronized (sockets) {
            sockets.add(s);
        }
        return s;
    }

    private void send(int index, int bytes) {
        try {
            OutputStream out = sockets.get(index).getOutputStream();
            out.write(new byte[bytes]);
            out.flush();
        } catch (IOException e) {
            if (!closed) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private void shortConnection() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(server, DB_PORT), 5_000);
            s.getOutputStream().write(new byte[5_000]);
            s.shutdownOutput();
            s.getInputStream().read(); // until the server closes: the whole exchange is on the wire
        } catch (IOException e) {
            if (!closed) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private void accept(ServerSocket listener) {
        while (!closed) {
            try {
                Socket s = listener.accept();
                Thread t = new Thread(() -> drain(s), "traffic-drain");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void drain(Socket s) {
        try (s; InputStream in = s.getInputStream()) {
            byte[] buf = new byte[8192];
            while (in.read(buf) >= 0) {
                // discard
            }
        } catch (IOException e) {
            // the peer went away
        }
    }

    /** Stops sending and closes every socket (the long-lived flows end with FIN). */
    @Override
    public void close() throws Exception {
        timer.shutdown();
        timer.awaitTermination(10, TimeUnit.SECONDS);
        closed = true;
        synchronized (sockets) {
            for (Socket s : sockets) {
                s.close();
            }
        }
        for (ServerSocket l : listeners) {
            l.close();
        }
    }
}
