package io.siteflow.agent.export;

import io.siteflow.model.IpAddresses;
import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collector's decoding side: takes datagrams out of the {@link DatagramReceiver}'s pool in arrival order, decodes
 * each with its socket's decoder ({@link ExportDecoder}, {@link SflowDecoder}) in the state of its exporter, gives the
 * flows to the {@link BiflowJoiner} and expires its conversations every 100 ms, until the receiving thread has ended
 * and the pool is empty.
 *
 * <p>{@link #run} on one thread (the source's); {@link #exporters}, {@link #joiner} and the test hooks from any.
 */
final class ExportDecoding {
    private static final Logger LOG = LoggerFactory.getLogger(ExportDecoding.class);
    private static final long EXPIRY_EVERY_MS = 100;
    private static final int DRAIN_BATCH = 1_000;

    private final DatagramReceiver receiver;
    private final ExportDecoder decoder;
    private final SflowDecoder sflowDecoder;
    private final String listenName;
    private final String sflowName;
    private final ExporterState[] states; // the decoding thread's, by the receiver's exporter number
    private volatile boolean paused;
    private volatile BiflowJoiner joiner;
    private volatile long exporterCount;

    /**
     * @param listenName the NetFlow/IPFIX socket's address (records' {@code iface}), or null
     * @param sflowName  the sFlow socket's, or null
     */
    ExportDecoding(DatagramReceiver receiver, ExportCounters counters, CollectSettings settings, String listenName,
            String sflowName) {
        this.receiver = receiver;
        this.decoder = new ExportDecoder(counters, settings.sampling(), settings.templateLifetime().toMillis(),
                settings.maxTemplates(), settings.maxDomains());
        this.sflowDecoder = new SflowDecoder(counters, settings.sampling(), settings.maxDomains());
        this.listenName = listenName;
        this.sflowName = sflowName;
        this.states = new ExporterState[receiver.exporterBound()];
    }

    /**
     * Decodes into {@code j} until the receiving thread has ended and everything it put into the pool is decoded,
     * then hands over every conversation {@code j} holds.
     */
    void run(BiflowJoiner j) {
        joiner = j;
        DatagramPool p = receiver.pool();
        ByteBuffer buf = ByteBuffer.allocate(65536);
        long lastExpiry = 0;
        while (true) {
            boolean ended = receiver.ended(); // read before the pool: what was put in before the end is seen
            int n = paused ? 0 : decode(p, buf, j);
            long now = System.currentTimeMillis();
            if (now - lastExpiry >= EXPIRY_EVERY_MS) {
                j.expire(now);
                lastExpiry = now;
            }
            if (n == 0) {
                if (ended && !paused) {
                    break;
                }
                receiver.awaitDatagrams(EXPIRY_EVERY_MS * 1_000_000, paused);
            }
        }
        j.flushAll();
    }

    /** Decodes at most {@link #DRAIN_BATCH} datagrams from the pool (expiry runs between batches); returns how many. */
    private int decode(DatagramPool p, ByteBuffer buf, BiflowJoiner j) {
        int n = 0;
        for (int tag; n < DRAIN_BATCH && (tag = p.poll(buf)) >= 0; n++) {
            long now = p.polledMs();
            ExporterState ex = state(tag & 0xFFFF);
            j.now(now);
            if (tag >>> 16 == SflowDecoder.KIND) {
                j.source(sflowName, SflowDecoder.KIND);
                sflowDecoder.decode(ex, buf, j);
            } else {
                j.source(listenName, 0);
                decoder.decode(ex, buf, now, j);
            }
        }
        return n;
    }

    /** The decoding thread's state of exporter {@code number}, made at its first datagram. */
    private ExporterState state(int number) {
        ExporterState ex = states[number];
        if (ex != null) {
            return ex;
        }
        ByteBuffer raw = ByteBuffer.wrap(receiver.sender(number).getAddress()); // no scope id, unlike the text form
        long hi = raw.remaining() == 4 ? 0 : raw.getLong();
        long lo = raw.remaining() == 4 ? IpAddresses.v4Lo(raw.getInt()) : raw.getLong();
        ex = new ExporterState(hi, lo, IpAddresses.format(hi, lo));
        states[number] = ex;
        exporterCount++; // this thread is the one writer
        LOG.info("collect: first datagram from exporter {}", ex.address());
        return ex;
    }

    /** The joiner {@link #run} fills, null before it started. */
    BiflowJoiner joiner() {
        return joiner;
    }

    /** Exporters whose datagrams were decoded. */
    long exporters() {
        return exporterCount;
    }

    /** Test hook: holds decoding (the receiving thread goes on filling the pool) until resumed. */
    void pause() {
        paused = true;
    }

    /** Test hook: lets decoding go on. */
    void resume() {
        paused = false;
        receiver.wake();
    }
}
