package io.siteflow.agent.export;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Selector;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collector's receiving thread ({@code siteflow-collect-receive}): reads the NetFlow/IPFIX and the sFlow socket
 * (a selector over both) into the {@link DatagramPool} and does nothing else, so that a slow decoder or a cold JVM
 * never leaves datagrams in the kernel's socket buffer. Applies the exporter list and bound (refused datagrams take
 * no pool space) and numbers the exporters for the pool; a datagram the pool cannot take is counted as dropped
 * ({@link ExportCounters#drop}). After {@link #stop} it reads what already reached the sockets, then ends.
 *
 * <p>The decoding thread (one) reads the pool, {@link #sender} and {@link #ended}, and waits in
 * {@link #awaitDatagrams}; the receiving thread wakes it only when it waits. Counts are safe from any thread.
 */
final class DatagramReceiver {
    private static final Logger LOG = LoggerFactory.getLogger(DatagramReceiver.class);
    private static final int BATCH = 1_000;
    /** After a stop, at most this many batches per socket: what a full socket buffer holds, not an endless sender. */
    private static final int FINAL_BATCHES = 100;
    private static final long SELECT_MS = 100;

    private final DatagramChannel channel;
    private final DatagramChannel sflowChannel;
    private final Selector selector;
    private final ExportCounters counters;
    private final Set<InetAddress> allowed;
    private final Map<InetAddress, Integer> numbers = new HashMap<>();
    private final InetAddress[] senders;
    private final DatagramPool pool;
    private final Thread thread;
    private volatile Thread consumer;
    private volatile boolean waiting;
    private volatile boolean stopped;
    private volatile boolean ended;
    private volatile Exception failure;
    private volatile long pooled;
    private volatile long peak;

    /**
     * @param channel      the NetFlow/IPFIX socket (non-blocking, registered with {@code selector}), or null
     * @param sflowChannel the sFlow socket, likewise, or null
     * @param allowed      the exporters whose datagrams are taken; empty: any, up to {@code maxExporters}
     * @param poolBytes    the pool's size ({@link DatagramPool#MIN_CAPACITY} or more)
     */
    DatagramReceiver(DatagramChannel channel, DatagramChannel sflowChannel, Selector selector, ExportCounters counters,
            List<InetAddress> allowed, int maxExporters, int poolBytes) {
        this.channel = channel;
        this.sflowChannel = sflowChannel;
        this.selector = selector;
        this.counters = counters;
        this.allowed = new HashSet<>(allowed);
        this.senders = new InetAddress[Math.min(maxExporters, 65_536)]; // the pool carries a 16-bit number
        this.pool = new DatagramPool(poolBytes);
        this.thread = new Thread(this::receive, "siteflow-collect-receive");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Asks the thread to read what reached the sockets and end; safe from any thread. */
    void stop() {
        stopped = true;
        selector.wakeup();
    }

    /** Waits for the thread to end, at most {@code ms}. */
    void join(long ms) throws InterruptedException {
        thread.join(ms);
    }

    DatagramPool pool() {
        return pool;
    }

    /** The exporters the pool's numbers stand for; at most this many are taken. */
    int exporterBound() {
        return senders.length;
    }

    /** The address of exporter {@code number}, as the pool gives it (the decoding thread). */
    InetAddress sender(int number) {
        return senders[number]; // written before the pool's write position that published the number
    }

    /** True once the thread has ended: after it, nothing more comes into the pool. */
    boolean ended() {
        return ended;
    }

    /** What ended the thread other than a stop (a socket failure), or null. */
    Exception failure() {
        return failure;
    }

    /** Datagrams put into the pool. */
    long pooled() {
        return pooled;
    }

    /** The most bytes the pool held at once. */
    long peak() {
        return peak;
    }

    /**
     * The decoding thread waits here, at most {@code nanos}, when it found the pool empty (or is held: {@code hold});
     * returns early when a datagram comes, the thread ends or {@link #wake} is called.
     */
    void awaitDatagrams(long nanos, boolean hold) {
        consumer = Thread.currentThread();
        waiting = true;
        if (hold || pool.used() == 0 && !ended) {
            LockSupport.parkNanos(nanos);
        }
        waiting = false;
    }

    /** Wakes the decoding thread if it waits. */
    void wake() {
        LockSupport.unpark(consumer);
    }

    private void receive() {
        ByteBuffer scratch = ByteBuffer.allocateDirect(65536);
        try {
            while (!stopped) {
                selector.select(SELECT_MS);
                selector.selectedKeys().clear();
                receiveAll(scratch, Integer.MAX_VALUE);
            }
            receiveAll(scratch, FINAL_BATCHES); // what reached the sockets before the stop
        } catch (IOException | RuntimeException e) {
            failure = e;
        } finally {
            ended = true;
            wake();
        }
    }

    /**
     * Reads both sockets, batch by batch, until they are empty, at most {@code batches} batches; while running, until
     * a stop (a sender that never pauses cannot keep it from stopping).
     */
    private void receiveAll(ByteBuffer scratch, int batches) throws IOException {
        int n;
        boolean running = !stopped;
        do {
            n = channel == null ? 0 : receiveAll(channel, scratch, 0);
            n += sflowChannel == null ? 0 : receiveAll(sflowChannel, scratch, SflowDecoder.KIND);
        } while (n > 0 && --batches > 0 && (!running || !stopped));
    }

    private int receiveAll(DatagramChannel from, ByteBuffer scratch, int kind) throws IOException {
        SocketAddress sender;
        int n = 0;
        for (; n < BATCH && (sender = from.receive(scratch.clear())) != null; n++) {
            long now = System.currentTimeMillis();
            int number = number(((InetSocketAddress) sender).getAddress());
            if (number < 0) {
                continue;
            }
            scratch.flip();
            int length = scratch.remaining();
            if (!pool.offer(scratch, kind, number, now)) {
                counters.drop("datagram of " + length + " bytes from exporter " + senders[number].getHostAddress()
                        + " dropped: the receive pool (" + DatagramPool.size(pool.capacity())
                        + ", --receive-buffer-mb) is full");
                continue;
            }
            pooled++; // this thread is the one writer
            long used = pool.used();
            if (used > peak) {
                peak = used;
            }
            if (waiting) {
                wake();
            }
        }
        return n;
    }

    /**
     * The number of an exporter (0 up: the pool carries it), or -1 when its datagrams are refused (not an
     * {@code --exporter}, or beyond the exporter bound), counted.
     */
    private int number(InetAddress address) {
        Integer known = numbers.get(address);
        if (known != null) {
            return known;
        }
        if (!allowed.isEmpty() && !allowed.contains(address) || numbers.size() >= senders.length) {
            if (counters.refused() == 0) {
                LOG.warn("collect: datagrams from {} refused ({}); further ones are counted, not logged",
                        address.getHostAddress(), allowed.isEmpty() ? "more than " + senders.length
                                + " exporters" : "not an --exporter");
            }
            counters.refuse();
            return -1;
        }
        int number = numbers.size();
        senders[number] = address;
        numbers.put(address, number);
        return number;
    }
}
