package io.siteflow.lab;

import java.io.Closeable;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;

/**
 * A UDP socket of a region-2 host, opened inside its namespace on the host's address and the given port
 * (0: ephemeral): sends one datagram to a {@link LabService} and waits up to 2 s for the answer.
 * Not thread-safe.
 */
final class UdpPeer implements Closeable {
    private final DatagramSocket socket;
    private final InetSocketAddress target;
    private final byte[] buf = new byte[65_536];

    private UdpPeer(DatagramSocket socket, InetSocketAddress target) {
        this.socket = socket;
        this.target = target;
    }

    static UdpPeer open(String ns, LabHost local, int localPort, LabService service) throws Exception {
        DatagramSocket s = Netns.call(ns, () -> new DatagramSocket(new InetSocketAddress(local.address(), localPort)));
        s.setSoTimeout(2_000);
        return new UdpPeer(s, new InetSocketAddress(service.host().address(), service.port()));
    }

    /** Sends {@code datagram}; returns true when an answer came back within the timeout. */
    boolean exchange(byte[] datagram) throws IOException {
        socket.send(new DatagramPacket(datagram, datagram.length, target));
        try {
            socket.receive(new DatagramPacket(buf, buf.length));
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() {
        socket.close();
    }
}
