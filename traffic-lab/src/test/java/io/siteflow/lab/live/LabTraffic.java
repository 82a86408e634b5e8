package io.siteflow.lab.live;

import io.siteflow.lab.NetnsLab;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * Traffic from namespace B to namespace A of a {@link NetnsLab}, with the test's own sockets. Every
 * exchange ends without a packet after the call returns: TCP ends with a reset from A after A has read
 * B's FIN (no final ACK in flight), UDP goes to a bound socket in A (no ICMP port unreachable).
 */
final class LabTraffic {
    private final NetnsLab lab;
    private final DatagramSocket sinkA;
    private final String sinkAddress;

    private LabTraffic(NetnsLab lab, DatagramSocket sinkA, String sinkAddress) {
        this.lab = lab;
        this.sinkA = sinkA;
        this.sinkAddress = sinkAddress;
    }

    /** Opens a UDP sink in A on {@code addressA} (which must be one of A's addresses). */
    static LabTraffic to(NetnsLab lab, String addressA) throws Exception {
        DatagramSocket sink = lab.call(lab.nsA(), () -> new DatagramSocket(new InetSocketAddress(addressA, 0)));
        return new LabTraffic(lab, sink, addressA);
    }

    /** Sends {@code bytes} over one TCP connection from B to A; returns the bytes A received. */
    long tcp(long bytes) throws Exception {
        InetAddress a = InetAddress.getByName(sinkAddress);
        try (ServerSocket server = lab.call(lab.nsA(), () -> new ServerSocket(0, 1, a))) {
            CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> readAllThenReset(server));
            try (Socket client = lab.call(lab.nsB(), () -> new Socket(a, server.getLocalPort()))) {
                OutputStream out = client.getOutputStream();
                byte[] chunk = new byte[64 * 1024];
                for (long left = bytes; left > 0; left -= chunk.length) {
                    out.write(chunk, 0, (int) Math.min(chunk.length, left));
                }
            }
            return received.get();
        }
    }

    private static long readAllThenReset(ServerSocket server) {
        try (Socket s = server.accept()) {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[64 * 1024];
            long total = 0;
            for (int n; (n = in.read(buf)) >= 0; ) {
                total += n;
            }
            s.setSoLinger(true, 0);
            return total;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Sends {@code count} datagrams from {@code fromB} (one of B's addresses), payloads of 1..1400 bytes. */
    void udp(String fromB, int count) throws Exception {
        try (DatagramSocket s = lab.call(lab.nsB(), () -> new DatagramSocket(new InetSocketAddress(fromB, 0)))) {
            InetSocketAddress to = new InetSocketAddress(sinkAddress, sinkA.getLocalPort());
            byte[] payload = new byte[1400];
            for (int i = 0; i < count; i++) {
                s.send(new DatagramPacket(payload, 1 + (i * 97) % payload.length, to));
            }
        }
    }

    /** Sends one datagram from {@code fromB} carrying {@code marker}. */
    void marker(String fromB, byte[] marker) throws Exception {
        try (DatagramSocket s = lab.call(lab.nsB(), () -> new DatagramSocket(new InetSocketAddress(fromB, 0)))) {
            s.send(new DatagramPacket(marker, marker.length, new InetSocketAddress(sinkAddress, sinkA.getLocalPort())));
        }
    }

    static byte[] newMarker(String what) {
        return ("siteflow-" + what + "-" + System.nanoTime()).getBytes(StandardCharsets.US_ASCII);
    }

    void close() {
        sinkA.close();
    }
}
