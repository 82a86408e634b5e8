package io.siteflow.agent.export;

import io.micrometer.core.instrument.MeterRegistry;
import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.source.FlowSource;
import io.siteflow.model.IpAddresses;
import io.siteflow.model.wire.Heartbeat;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code siteflow collect}'s source: a UDP socket that receives NetFlow v5/v9 and IPFIX datagrams ({@code --listen},
 * {@link ExportDecoder}) and/or one that receives sFlow v5 datagrams ({@code --sflow}, {@link SflowDecoder}), joins
 * the directions ({@link BiflowJoiner}) and gives the records to the sink. The sockets are bound when the source is
 * opened, so the caller can say where it listens before the run starts, and the {@link DatagramReceiver}'s thread
 * reads both into the {@link DatagramPool} ({@code --receive-buffer-mb}) from then on, however long the sinks take to
 * start; the caller's thread decodes and joins ({@link #run}). A datagram the pool cannot take is dropped and counted
 * ({@link ExportCounters#dropped}); exporters outside {@code --exporter} are refused and counted.
 *
 * <p>{@link #stats()}: {@code received} is flow records decoded, {@code droppedKernel} is what the sequence numbers
 * say was lost (records for v5 and IPFIX, export packets for v9, datagrams for sFlow), as the heartbeat carries a
 * capture's kernel drops; sFlow's sampled packets count as records received. The heartbeat carries the same counters
 * apart too ({@link #heartbeatCounters()}), and the processor judges a collector's loss from those. A datagram the
 * pool dropped is counted in {@code datagrams} and, as it could not be read, in {@code datagramsMalformed}; its
 * records show as lost in the sequence numbers once the exporter's next datagram is decoded.
 */
public final class ExportSource implements FlowSource {
    private static final Logger LOG = LoggerFactory.getLogger(ExportSource.class);
    private static final long EXPIRY_EVERY_MS = 100;
    private static final int DRAIN_BATCH = 1_000;

    private final CollectSettings settings;
    private final DatagramChannel channel;
    private final DatagramChannel sflowChannel;
    private final Selector selector;
    private final String name;
    private final String listenName;
    private final String sflowName;
    private final String agent;
    private final String runId;
    private final FlowTableConfig table;
    private final ExportCounters counters = new ExportCounters();
    private final ExportDecoder decoder;
    private final SflowDecoder sflowDecoder;
    private final DatagramReceiver receiver;
    private final ExporterState[] states; // the decoding thread's, by the receiver's exporter number
    private final int grantedReceiveBuffer;
    private volatile boolean paused;
    private volatile BiflowJoiner joiner;
    private final CaptureReadings readings = new JoinerReadings(() -> joiner);
    private volatile long exporterCount;

    private ExportSource(CollectSettings settings, DatagramChannel channel, DatagramChannel sflowChannel,
            Selector selector, String agent, String runId, FlowTableConfig table) throws IOException {
        this.settings = settings;
        this.channel = channel;
        this.sflowChannel = sflowChannel;
        this.selector = selector;
        this.listenName = channel == null ? null : where((InetSocketAddress) channel.getLocalAddress());
        this.sflowName = sflowChannel == null ? null : where((InetSocketAddress) sflowChannel.getLocalAddress());
        this.name = listenName == null ? sflowName + " (sFlow)"
                : sflowName == null ? listenName : listenName + " and " + sflowName + " (sFlow)";
        this.agent = agent;
        this.runId = runId;
        this.table = table;
        this.decoder = new ExportDecoder(counters, settings.sampling(), settings.templateLifetime().toMillis(),
                settings.maxTemplates(), settings.maxDomains());
        this.sflowDecoder = new SflowDecoder(counters, settings.sampling(), settings.maxDomains());
        DatagramChannel any = channel != null ? channel : sflowChannel;
        this.grantedReceiveBuffer = any.getOption(StandardSocketOptions.SO_RCVBUF);
        this.receiver = new DatagramReceiver(channel, sflowChannel, selector, counters, settings.exporters(),
                settings.maxExporters(), settings.receivePoolBytes());
        this.states = new ExporterState[receiver.exporterBound()];
    }

    private static String where(InetSocketAddress a) {
        return a.getAddress().getHostAddress() + ":" + a.getPort();
    }

    /**
     * Binds the socket.
     *
     * @param agent the agent id records carry
     * @param runId the prefix of record ids
     * @param table the agent's flow-table settings (active and idle timeouts, max flows) the joiner follows
     * @throws CaptureFailure when the address cannot be bound (in use, not local, no permission)
     */
    public static ExportSource open(CollectSettings settings, String agent, String runId, FlowTableConfig table)
            throws CaptureFailure {
        DatagramChannel channel = null;
        DatagramChannel sflow = null;
        Selector selector = null;
        try {
            selector = Selector.open();
            channel = settings.listen() == null ? null : bind(settings.listen(), settings, selector);
            sflow = settings.sflow() == null ? null : bind(settings.sflow(), settings, selector);
            ExportSource source = new ExportSource(settings, channel, sflow, selector, agent, runId, table);
            source.receiver.start(); // from now on datagrams wait in the pool, however long the sinks take to start
            return source;
        } catch (Bind e) {
            closeAll(e.getCause(), channel, sflow, selector);
            throw new CaptureFailure("collect: cannot listen on udp " + e.where + ": " + e.getCause().getMessage(),
                    e.getCause());
        } catch (IOException e) {
            closeAll(e, channel, sflow, selector);
            throw new CaptureFailure("collect: cannot listen on udp: " + e.getMessage(), e);
        }
    }

    private static DatagramChannel bind(InetSocketAddress at, CollectSettings settings, Selector selector)
            throws Bind {
        DatagramChannel channel = null;
        try {
            channel = DatagramChannel.open(at.getAddress() instanceof Inet4Address
                    ? java.net.StandardProtocolFamily.INET : java.net.StandardProtocolFamily.INET6);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, settings.receiveBufferBytes());
            channel.bind(at);
            channel.configureBlocking(false);
            channel.register(selector, SelectionKey.OP_READ);
            return channel;
        } catch (IOException e) {
            closeAll(e, channel);
            throw new Bind(where(at), e);
        }
    }

    private static void closeAll(Throwable failure, java.io.Closeable... all) {
        for (java.io.Closeable c : all) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException suppressed) {
                    failure.addSuppressed(suppressed);
                }
            }
        }
    }

    /** A socket that could not be bound, with its address. */
    private static final class Bind extends IOException {
        private static final long serialVersionUID = 1L;
        final String where;

        Bind(String where, IOException cause) {
            super(cause);
            this.where = where;
        }
    }

    /**
     * The addresses and ports listened on: {@code 127.0.0.1:2055}, {@code 127.0.0.1:2055 and 127.0.0.1:6343 (sFlow)}
     * or {@code 127.0.0.1:6343 (sFlow)}; records carry the one of their socket as {@code iface}.
     */
    @Override
    public String name() {
        return name;
    }

    /** The NetFlow/IPFIX port listened on (the one chosen when asked for port 0); -1 without {@code --listen}. */
    public int port() {
        return listenName == null ? -1 : Integer.parseInt(listenName.substring(listenName.lastIndexOf(':') + 1));
    }

    /** The sFlow port listened on (the one chosen when asked for port 0); -1 without {@code --sflow}. */
    public int sflowPort() {
        return sflowName == null ? -1 : Integer.parseInt(sflowName.substring(sflowName.lastIndexOf(':') + 1));
    }

    /**
     * For the start-up line: the socket receive buffer the kernel granted (as the JDK reads it back) against what was
     * asked, and the receive pool. When the kernel capped it: the sysctl that raises the cap.
     */
    public String startNote() {
        int asked = settings.receiveBufferBytes();
        String cap = grantedReceiveBuffer < asked ? " (capped by net.core.rmem_max; raise it: sysctl -w "
                + "net.core.rmem_max=" + asked + ")" : "";
        return "; socket receive buffer " + grantedReceiveBuffer + " bytes granted of " + asked + " asked" + cap
                + ", receive pool " + DatagramPool.size(settings.receivePoolBytes());
    }

    /** The socket receive buffer the kernel granted (SO_RCVBUF as read back), in bytes. */
    public int grantedReceiveBuffer() {
        return grantedReceiveBuffer;
    }

    /** The collector's own counters; safe from any thread. */
    public ExportCounters counters() {
        return counters;
    }

    /**
     * Decodes and joins, on the caller's thread, what the receiving thread ({@code siteflow-collect-receive}, started
     * when the source is opened: the sockets into the {@link DatagramPool}, nothing else) puts in the pool, until
     * {@link #stop}: then what reached the sockets, and what the pool holds, is decoded too, every conversation
     * handed over and the sink flushed.
     */
    @Override
    public void run(FlowSink sink) throws CaptureFailure {
        BiflowJoiner j = new BiflowJoiner(agent, listenName != null ? listenName : sflowName, runId, table,
                sink::accept);
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
        sink.flush();
        Exception failure = receiver.failure();
        if (failure != null) {
            throw new CaptureFailure("collect: udp " + name + ": " + failure.getMessage(), failure);
        }
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
        exporterCount++;
        LOG.info("collect: first datagram from exporter {}", ex.address());
        return ex;
    }

    /** Datagrams the receiving thread has put into the pool; safe from any thread. */
    long pooled() {
        return receiver.pooled();
    }

    /** Test hook: holds the decoding thread (the receiving thread goes on filling the pool) until resumed. */
    void pauseDecoding() {
        paused = true;
    }

    /** Test hook: lets the decoding thread go on. */
    void resumeDecoding() {
        paused = false;
        receiver.wake();
    }

    @Override
    public void stop() {
        receiver.stop();
    }

    @Override
    public CaptureStats stats() {
        return new CaptureStats(counters.records() + counters.sflowPackets(),
                counters.lostRecords() + counters.lostPackets() + counters.sflowLostDatagrams(), 0);
    }

    /**
     * The heartbeat's collector counters, each in its own unit ({@link #stats()} adds them up as one number for
     * readers older than them). Safe from any thread (values may lag).
     */
    public Heartbeat.Export heartbeatCounters() {
        ExportCounters c = counters;
        return new Heartbeat.Export(c.datagrams(), c.records(), c.lostRecords(), c.lostPackets(), c.sflowPackets(),
                c.sflowLostDatagrams(), c.malformedTotal() + c.dropped(), c.refused());
    }

    @Override
    public CaptureReadings readings() {
        return readings;
    }

    @Override
    public List<String> problems() {
        return List.of();
    }

    @Override
    public void registerMeters(MeterRegistry registry) {
        ExportMeters.register(registry, counters);
    }

    @Override
    public List<String> summary() {
        ExportCounters c = counters;
        BiflowJoiner j = joiner;
        String malformed = c.malformedByKind().isEmpty() ? "" : " " + c.malformedByKind();
        List<String> lines = new java.util.ArrayList<>(List.of(
                String.format("%s: %d datagrams from %d exporters, %d refused; %d flow records, %d options records",
                        name, c.datagrams(), exporterCount, c.refused(), c.records(), c.optionsRecords()),
                String.format("lost by sequence numbers: %d records (v5, IPFIX), %d export packets (v9); %d sequence "
                        + "resets; %d malformed%s", c.lostRecords(), c.lostPackets(), c.sequenceResets(),
                        c.malformedTotal(), malformed),
                String.format("%d conversations, %d evicted early", j == null ? 0 : j.created(),
                        j == null ? 0 : j.evictions()),
                String.format("receive pool %s: %d datagrams dropped (full), at most %d bytes held",
                        DatagramPool.size(settings.receivePoolBytes()), c.dropped(), receiver.peak())));
        if (sflowChannel != null) {
            lines.add(String.format("sFlow: %d flow samples, %d packets in flows, %d not IP; %d counter samples (%d "
                    + "interface counters); %d skipped by length; %d datagrams lost by sequence numbers; %d "
                    + "dropped by agents", c.sflowFlowSamples(), c.sflowPackets(), c.sflowNotIp(),
                    c.sflowCounterSamples(), c.sflowInterfaceCounters(), c.sflowSkippedRecords(),
                    c.sflowLostDatagrams(), c.sflowAgentDrops()));
        }
        return lines;
    }

    @Override
    public void close() {
        receiver.stop();
        try {
            receiver.join(10_000); // it ends at the stop, after what is left in the sockets
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            selector.close();
            if (channel != null) {
                channel.close();
            }
            if (sflowChannel != null) {
                sflowChannel.close();
            }
        } catch (IOException e) {
            LOG.debug("collect: closing udp {}", name, e);
        }
    }
}
