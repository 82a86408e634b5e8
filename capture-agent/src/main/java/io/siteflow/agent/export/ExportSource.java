package io.siteflow.agent.export;

import io.micrometer.core.instrument.MeterRegistry;
import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.source.FlowSource;
import io.siteflow.model.wire.Heartbeat;
import java.util.List;

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
 * records show as lost in the sequence numbers once the exporter's next datagram is decoded, and the end of the run
 * names the datagrams dropped ({@link #losses()}: the run exits 1).
 *
 * <p>The parts: {@link ExportSockets} (binding, the start-up note), {@link DatagramReceiver} (the receiving thread
 * into the {@link DatagramPool}), {@link ExportDecoding} (pool → decoders → joiner), {@link ExportSummary} (the
 * summary, the heartbeat's counters, the losses).
 */
public final class ExportSource implements FlowSource {
    private final CollectSettings settings;
    private final ExportSockets sockets;
    private final String agent;
    private final String runId;
    private final FlowTableConfig table;
    private final ExportCounters counters = new ExportCounters();
    private final DatagramReceiver receiver;
    private final ExportDecoding decoding;
    private final CaptureReadings readings;

    private ExportSource(CollectSettings settings, ExportSockets sockets, String agent, String runId,
            FlowTableConfig table) {
        this.settings = settings;
        this.sockets = sockets;
        this.agent = agent;
        this.runId = runId;
        this.table = table;
        this.receiver = new DatagramReceiver(sockets.channel, sockets.sflowChannel, sockets.selector, counters,
                settings.exporters(), settings.maxExporters(), settings.receivePoolBytes());
        this.decoding = new ExportDecoding(receiver, counters, settings, sockets.listenName, sockets.sflowName);
        this.readings = new JoinerReadings(decoding::joiner);
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
        ExportSockets sockets = ExportSockets.open(settings);
        ExportSource source = new ExportSource(settings, sockets, agent, runId, table);
        source.receiver.start(); // from now on datagrams wait in the pool, however long the sinks take to start
        return source;
    }

    /**
     * The addresses and ports listened on: {@code 127.0.0.1:2055}, {@code 127.0.0.1:2055 and 127.0.0.1:6343 (sFlow)}
     * or {@code 127.0.0.1:6343 (sFlow)}; records carry the one of their socket as {@code iface}.
     */
    @Override
    public String name() {
        return sockets.name;
    }

    /** The NetFlow/IPFIX port listened on (the one chosen when asked for port 0); -1 without {@code --listen}. */
    public int port() {
        return ExportSockets.port(sockets.listenName);
    }

    /** The sFlow port listened on (the one chosen when asked for port 0); -1 without {@code --sflow}. */
    public int sflowPort() {
        return ExportSockets.port(sockets.sflowName);
    }

    /**
     * For the start-up line: the socket receive buffer the kernel granted (as the JDK reads it back) against what was
     * asked, and the receive pool. When the kernel capped it: the sysctl that raises the cap.
     */
    public String startNote() {
        int asked = settings.receiveBufferBytes();
        int granted = sockets.grantedReceiveBuffer;
        String cap = granted < asked ? " (capped by net.core.rmem_max; raise it: sysctl -w "
                + "net.core.rmem_max=" + asked + ")" : "";
        return "; socket receive buffer " + granted + " bytes granted of " + asked + " asked" + cap
                + ", receive pool " + DatagramPool.size(settings.receivePoolBytes());
    }

    /** The socket receive buffer the kernel granted (SO_RCVBUF as read back), in bytes. */
    public int grantedReceiveBuffer() {
        return sockets.grantedReceiveBuffer;
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
        String iface = sockets.listenName != null ? sockets.listenName : sockets.sflowName;
        decoding.run(new BiflowJoiner(agent, iface, runId, table, sink::accept));
        sink.flush();
        Exception failure = receiver.failure();
        if (failure != null) {
            throw new CaptureFailure("collect: udp " + sockets.name + ": " + failure.getMessage(), failure);
        }
    }

    /** Datagrams the receiving thread has put into the pool; safe from any thread. */
    long pooled() {
        return receiver.pooled();
    }

    /** Test hook: holds the decoding thread (the receiving thread goes on filling the pool) until resumed. */
    void pauseDecoding() {
        decoding.pause();
    }

    /** Test hook: lets the decoding thread go on. */
    void resumeDecoding() {
        decoding.resume();
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
        return ExportSummary.heartbeat(counters);
    }

    @Override
    public CaptureReadings readings() {
        return readings;
    }

    @Override
    public List<String> problems() {
        return List.of();
    }

    /**
     * The datagrams the collector dropped itself (its receive pool was full), during the run or at its very end: one
     * line naming how many and why, or empty. Loss the sequence numbers show is the network's and is not here.
     */
    @Override
    public List<String> losses() {
        return ExportSummary.losses(counters, settings.receivePoolBytes());
    }

    @Override
    public void registerMeters(MeterRegistry registry) {
        ExportMeters.register(registry, counters);
    }

    @Override
    public List<String> summary() {
        return ExportSummary.lines(sockets.name, counters, decoding.exporters(), decoding.joiner(),
                settings.receivePoolBytes(), receiver.peak(), sockets.sflowChannel != null);
    }

    @Override
    public void close() {
        receiver.stop();
        try {
            receiver.join(10_000); // it ends at the stop, after what is left in the sockets
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sockets.close();
    }
}
