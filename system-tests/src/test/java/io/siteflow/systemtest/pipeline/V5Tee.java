package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A UDP tee on loopback between a NetFlow v5 exporter and {@code siteflow collect}: it forwards every datagram to the
 * target except those whose index (0, 1, ... in arrival order) is to be dropped, and tallies the flow records of both
 * from the v5 header's count (bytes 2-3). Once closed it forwards what still waits in its socket, then stops.
 */
final class V5Tee implements AutoCloseable {
    private static final Duration GUARD = Duration.ofSeconds(120);

    private final DatagramSocket socket;
    private final int target;
    private final Set<Integer> drop;
    private final Thread thread;
    private final List<Integer> dropped = new ArrayList<>();
    private volatile long forwardedRecords;
    private volatile long droppedRecords;
    private volatile boolean closed;
    private volatile Throwable failure;

    V5Tee(int target, Set<Integer> drop) throws SocketException {
        this.socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.socket.setReceiveBufferSize(4 << 20);
        this.socket.setSoTimeout(200);
        this.target = target;
        this.drop = drop;
        this.thread = new Thread(() -> {
            try {
                forward();
            } catch (RuntimeException | Error e) {
                failure = e;
            }
        }, "v5-tee");
        thread.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    /** The indexes of the datagrams dropped. */
    List<Integer> dropped() {
        return List.copyOf(dropped);
    }

    /** Flow records in the datagrams forwarded (their v5 headers' counts). */
    long forwardedRecords() {
        return forwardedRecords;
    }

    /** Flow records in the datagrams dropped (their v5 headers' counts). */
    long droppedRecords() {
        return droppedRecords;
    }

    private void forward() {
        byte[] buf = new byte[65536];
        int index = 0;
        try (DatagramSocket out = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            while (true) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    socket.receive(p);
                } catch (SocketTimeoutException e) {
                    if (closed) {
                        return;
                    }
                    continue;
                }
                assertThat(((buf[0] & 0xFF) << 8) | (buf[1] & 0xFF)).as("NetFlow version").isEqualTo(5);
                long records = ((buf[2] & 0xFF) << 8) | (buf[3] & 0xFF);
                if (drop.contains(index)) {
                    dropped.add(index);
                    droppedRecords += records;
                } else {
                    out.send(new DatagramPacket(buf, p.getLength(), InetAddress.getLoopbackAddress(), target));
                    forwardedRecords += records;
                }
                index++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Forwards what waits in the socket, then stops; fails when the forwarding thread failed. */
    @Override
    public void close() {
        if (socket.isClosed()) {
            return;
        }
        closed = true;
        try {
            thread.join(GUARD.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while the tee drained", e);
        }
        socket.close();
        assertThat(thread.isAlive()).as("the tee drained its socket").isFalse();
        assertThat(failure).as("the tee's thread failed").isNull();
    }
}
