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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code siteflow collect}'s source: a UDP socket that receives NetFlow v5/v9 and IPFIX datagrams ({@code --listen},
 * {@link ExportDecoder}) and/or one that receives sFlow v5 datagrams ({@code --sflow}, {@link SflowDecoder}), joins
 * the directions ({@link BiflowJoiner}) and gives the records to the sink. The sockets are bound when the source is
 * opened, so the caller can say where it listens before the run starts. One thread receives from both and decodes
 * ({@link #run}); exporters outside {@code --exporter} are refused and counted.
 *
 * <p>{@link #stats()}: {@code received} is flow records decoded, {@code droppedKernel} is what the sequence numbers
 * say was lost (records for v5 and IPFIX, export packets for v9, datagrams for sFlow), as the heartbeat carries a
 * capture's kernel drops; sFlow's sampled packets count as records received. The heartbeat carries the same counters
 * apart too ({@link #heartbeatCounters()}), and the processor judges a collector's loss from those.
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
    private final Set<InetAddress> allowed;
    private final Map<InetAddress, ExporterState> exporters = new HashMap<>();
    private volatile boolean stopped;
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
        this.allowed = new HashSet<>(settings.exporters());
        this.decoder = new ExportDecoder(counters, settings.sampling(), settings.templateLifetime().toMillis(),
                settings.maxTemplates(), settings.maxDomains());
        this.sflowDecoder = new SflowDecoder(counters, settings.sampling(), settings.maxDomains());
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
            return new ExportSource(settings, channel, sflow, selector, agent, runId, table);
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

    /** The collector's own counters; safe from any thread. */
    public ExportCounters counters() {
        return counters;
    }

    @Override
    public void run(FlowSink sink) throws CaptureFailure {
        BiflowJoiner j = new BiflowJoiner(agent, listenName != null ? listenName : sflowName, runId, table,
                sink::accept);
        joiner = j;
        ByteBuffer buf = ByteBuffer.allocate(65536);
        long lastExpiry = 0;
        try {
            while (!stopped) {
                selector.select(EXPIRY_EVERY_MS);
                selector.selectedKeys().clear();
                drain(buf, j);
                long now = System.currentTimeMillis();
                if (now - lastExpiry >= EXPIRY_EVERY_MS) {
                    j.expire(now);
                    lastExpiry = now;
                }
            }
            while (drain(buf, j) == DRAIN_BATCH) {
                // what reached the socket before the stop is decoded too
            }
        } catch (IOException e) {
            throw new CaptureFailure("collect: udp " + name + ": " + e.getMessage(), e);
        }
        j.flushAll();
        sink.flush();
    }

    /**
     * Decodes the datagrams waiting in the socket, at most {@link #DRAIN_BATCH} (the run checks for a stop and expires
     * conversations between batches); returns how many.
     */
    private int drain(ByteBuffer buf, BiflowJoiner j) throws IOException {
        int n = 0;
        if (channel != null) {
            j.source(listenName, 0);
            n = drain(channel, buf, j, false);
        }
        if (sflowChannel != null) {
            j.source(sflowName, SflowDecoder.KIND);
            n = Math.max(n, drain(sflowChannel, buf, j, true));
        }
        return n;
    }

    private int drain(DatagramChannel from, ByteBuffer buf, BiflowJoiner j, boolean sflow) throws IOException {
        SocketAddress sender;
        int n = 0;
        for (; n < DRAIN_BATCH && (sender = from.receive(buf.clear())) != null; n++) {
            long now = System.currentTimeMillis();
            buf.flip();
            ExporterState ex = exporter(((InetSocketAddress) sender).getAddress());
            if (ex != null) {
                j.now(now);
                if (sflow) {
                    sflowDecoder.decode(ex, buf, j);
                } else {
                    decoder.decode(ex, buf, now, j);
                }
            }
        }
        return n;
    }

    private ExporterState exporter(InetAddress address) {
        ExporterState ex = exporters.get(address);
        if (ex != null) {
            return ex;
        }
        if (!allowed.isEmpty() && !allowed.contains(address) || exporters.size() >= settings.maxExporters()) {
            if (counters.refused() == 0) {
                LOG.warn("collect: datagrams from {} refused ({}); further ones are counted, not logged",
                        address.getHostAddress(), allowed.isEmpty() ? "more than " + settings.maxExporters()
                                + " exporters" : "not an --exporter");
            }
            counters.refuse();
            return null;
        }
        ByteBuffer raw = ByteBuffer.wrap(address.getAddress()); // no scope id, unlike the text form
        long hi = raw.remaining() == 4 ? 0 : raw.getLong();
        long lo = raw.remaining() == 4 ? IpAddresses.v4Lo(raw.getInt()) : raw.getLong();
        ex = new ExporterState(hi, lo, IpAddresses.format(hi, lo));
        exporters.put(address, ex);
        exporterCount = exporters.size();
        LOG.info("collect: first datagram from exporter {}", ex.address());
        return ex;
    }

    @Override
    public void stop() {
        stopped = true;
        selector.wakeup();
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
                c.sflowLostDatagrams(), c.malformedTotal(), c.refused());
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
                        j == null ? 0 : j.evictions())));
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
