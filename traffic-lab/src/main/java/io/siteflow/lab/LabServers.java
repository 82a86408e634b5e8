package io.siteflow.lab;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every {@link LabService} listening in the region-1 namespace: one accept thread per TCP service and one
 * thread per connection, one receive thread per UDP service. Sockets are opened inside the namespace and
 * bound to the service host's address. {@link #close()} closes every socket, which ends every thread.
 * Thread-safe.
 */
public final class LabServers implements Closeable {
    private final List<Closeable> sockets = new ArrayList<>();
    private final AtomicLong seeds;
    private final AtomicLong failures = new AtomicLong();

    private LabServers(long seed) {
        this.seeds = new AtomicLong(seed);
    }

    /** Opens and starts every service inside namespace {@code ns}; the database answers at once. */
    public static LabServers start(String ns, long seed) throws Exception {
        return start(ns, seed, 0);
    }

    /**
     * Opens and starts every service inside namespace {@code ns}; the database waits {@code dbServiceNanos}
     * before it answers each SQL round trip (not the CONNECT).
     */
    public static LabServers start(String ns, long seed, long dbServiceNanos) throws Exception {
        LabServers servers = new LabServers(seed);
        try {
            for (LabService s : LabService.values()) {
                InetAddress at = InetAddress.getByName(s.host().address());
                if (s.udp()) {
                    DatagramSocket socket = Netns.call(ns, () -> new DatagramSocket(new InetSocketAddress(at, s.port())));
                    servers.add(socket);
                    servers.daemon("udp-" + s, () -> servers.receive(socket, ServerProtocols.udp(s)));
                } else {
                    ServerSocket socket = Netns.call(ns, () -> new ServerSocket(s.port(), 128, at));
                    servers.add(socket);
                    servers.daemon("accept-" + s, () -> servers.accept(socket, ServerProtocols.tcp(s, dbServiceNanos)));
                }
            }
        } catch (Exception e) {
            servers.close();
            throw e;
        }
        return servers;
    }

    /** A TCP listener: address, port and the protocol it serves. */
    record Listener(String address, int port, ServerProtocols.TcpHandler handler) {
    }

    /** Opens and starts the given TCP listeners inside namespace {@code ns}. */
    static LabServers start(String ns, long seed, java.util.List<Listener> listeners) throws Exception {
        LabServers servers = new LabServers(seed);
        try {
            for (Listener l : listeners) {
                InetAddress at = InetAddress.getByName(l.address());
                ServerSocket socket = Netns.call(ns, () -> new ServerSocket(l.port(), 128, at));
                servers.add(socket);
                servers.daemon("accept-" + l.address() + ":" + l.port(), () -> servers.accept(socket, l.handler()));
            }
        } catch (Exception e) {
            servers.close();
            throw e;
        }
        return servers;
    }

    /** Connections or datagrams that ended with an error other than the peer closing. */
    public long failures() {
        return failures.get();
    }

    private synchronized void add(Closeable c) {
        sockets.add(c);
    }

    private void daemon(String name, Runnable body) {
        Thread t = new Thread(body, "lab-" + name);
        t.setDaemon(true);
        t.start();
    }

    private void accept(ServerSocket server, ServerProtocols.TcpHandler handler) {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                s.setTcpNoDelay(true);
                add(s);
                daemon("conn-" + s.getLocalPort(), () -> serve(s, handler));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s, ServerProtocols.TcpHandler handler) {
        try (s; InputStream in = new BufferedInputStream(s.getInputStream(), 65_536);
                OutputStream out = new BufferedOutputStream(s.getOutputStream(), 65_536)) {
            handler.serve(in, out, new Random(seeds.incrementAndGet()));
        } catch (EOFException | SocketException e) {
            // the client closed the connection, or close() closed it
        } catch (IOException | RuntimeException e) {
            failures.incrementAndGet();
        }
    }

    private void receive(DatagramSocket socket, ServerProtocols.UdpHandler handler) {
        Random random = new Random(seeds.incrementAndGet());
        byte[] buf = new byte[65_536];
        while (!socket.isClosed()) {
            try {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                socket.receive(p);
                byte[] reply = handler.answer(buf, p.getLength(), random);
                if (reply != null) {
                    socket.send(new DatagramPacket(reply, reply.length, p.getSocketAddress()));
                }
            } catch (IOException e) {
                return;
            } catch (RuntimeException e) {
                failures.incrementAndGet();
            }
        }
    }

    @Override
    public synchronized void close() {
        for (Closeable c : sockets) {
            try {
                c.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        sockets.clear();
    }
}
