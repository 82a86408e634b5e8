package io.siteflow.agent.pipeline;

import io.siteflow.agent.capture.CaptureException;
import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.report.TextReport;
import io.siteflow.agent.signature.SignatureL7Tracker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One capture, wired in one place for the live agent ({@code siteflow capture}) and for file replays
 * ({@code FileReplay}, {@code siteflow audit}): packets of a {@link PacketSource} → clock check (packets dated more
 * than 5 min ahead of the host clock are skipped, {@link ClockCheck}) → decode → {@code -F} filter → flow table
 * (with the L7 signature tracker) → {@link FlowSink}, and the text report when one is given.
 *
 * <p>{@link #run} delivers the source's packets on the calling thread, or through a {@link PacketHandoff}
 * (a bounded queue and a worker thread) for libpcap's live captures and paced replays, or on the capture thread of
 * a source that buffers packets itself (a live ring, {@link PacketSource#buffersPackets()}), then flushes every
 * flow and the sink. Problems
 * with the input (unsupported link types, a corrupt or cut-short file) are collected in {@link #problems()},
 * in the order met; the capture goes on after each. With several workers ({@link #wire(String, Settings,
 * FlowSink, int)}) each has its own decoder, flow table and handoff, and the sink is called by one at a time.
 * Not thread-safe, except the {@link CaptureReadings} methods (values may lag by a packet).
 */
public final class Pipeline implements CaptureReadings {
    /** Queue of a live capture's handoff, in packets. */
    private static final int HANDOFF_CAPACITY = 1 << 16;
    /** How often an idle live capture advances the flow table's clock. */
    private static final long IDLE_TICK_MILLIS = 500;

    /**
     * What a capture is wired with.
     *
     * @param agent     the agent name the records carry
     * @param runId     the run id of the record ids ({@code AgentIds})
     * @param flowTable flow table limits and timeouts
     * @param filter    the {@code -F} filter
     * @param report    the text report fed with every kept packet, or null
     * @param sni         keep the TLS server name in records (false: {@code --no-sni})
     */
    public record Settings(String agent, String runId, FlowTableConfig flowTable, RemoteSiteFilter filter,
            TextReport report, boolean sni) {
        /** Settings that keep the TLS server name. */
        public Settings(String agent, String runId, FlowTableConfig flowTable, RemoteSiteFilter filter,
                TextReport report) {
            this(agent, runId, flowTable, filter, report, true);
        }
    }

    /** One worker's share: its decoder, flow table and record ids. */
    private record Lane(CapturePipeline packets, ClockCheck clock, FlowTable table, RecordFactory records) {
    }

    private final String sourceName;
    private final FlowSink sink;
    private final List<Lane> lanes;
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    private volatile List<PacketHandoff> handoffs = List.of();

    private Pipeline(String sourceName, Settings settings, FlowSink sink, int workers) {
        this.sourceName = sourceName;
        this.sink = workers == 1 ? sink : new SerialSink(sink);
        List<Lane> made = new ArrayList<>(workers);
        for (int w = 0; w < workers; w++) {
            String runId = workers == 1 ? settings.runId() : settings.runId() + "-w" + w;
            RecordFactory records = new RecordFactory(settings.agent(), sourceName, runId);
            FlowTable table = new FlowTable(settings.flowTable(), records, this.sink,
                    new SignatureL7Tracker(settings.sni()));
            CapturePipeline packets = new CapturePipeline(settings.filter(), table, settings.report(), workers > 1,
                    lt -> problems.add(unsupported(sourceName, lt)));
            made.add(new Lane(packets, new ClockCheck(packets, System::currentTimeMillis), table, records));
        }
        this.lanes = List.copyOf(made);
    }

    /** Wires a capture of the source named {@code sourceName} (an interface or a file name) into {@code sink}. */
    public static Pipeline wire(String sourceName, Settings settings, FlowSink sink) {
        return new Pipeline(sourceName, settings, sink, 1);
    }

    /**
     * Wires a capture with {@code workers} workers (a source's {@link PacketSource#workers()}): each has its own
     * decoder, flow table (each bounded by {@code settings.flowTable()}) and, for {@code workers > 1}, record ids
     * {@code <runId>-w<worker>-<n>}; all write into {@code sink}, one record at a time, and into one text report.
     */
    public static Pipeline wire(String sourceName, Settings settings, FlowSink sink, int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, not " + workers);
        }
        return new Pipeline(sourceName, settings, sink, workers);
    }

    /**
     * Delivers every packet of {@code source} until it ends or is stopped, then flushes every flow and the sink
     * (which is not closed). A corrupt or cut-short file ends the run with its message in {@link #problems()}.
     *
     * @param handOff true for live captures: packets are copied into a bounded queue on the capture thread and
     *                aggregated on a worker thread (a full queue drops and counts, {@link #agentDrops()}); a
     *                source with several workers always hands off, one queue and thread per worker
     * @throws CaptureException     when the source fails otherwise (nothing is flushed then)
     * @throws IllegalArgumentException when the source's workers are not this pipeline's
     * @throws IllegalStateException when a handoff's worker failed ({@code "flows: ..."}, e.g. {@code "flows: publish:
     *                               json: flows.jsonl: No space left on device"}): the worker stopped the source at
     *                               once, and nothing more is flushed
     */
    public void run(PacketSource source, boolean handOff) throws CaptureException {
        if (source.workers() != lanes.size()) {
            throw new IllegalArgumentException(source.name() + " has " + source.workers()
                    + " workers; this pipeline was wired for " + lanes.size());
        }
        try {
            if ((handOff || lanes.size() > 1) && source.buffersPackets()) {
                runOnCaptureThreads(source);
            } else if (handOff || lanes.size() > 1) {
                runHandedOff(source);
            } else {
                source.run(lanes.get(0).clock());
            }
        } catch (CaptureFileException e) {
            problems.add(e.getMessage());
        }
        for (Lane l : lanes) {
            String future = l.clock().problem(sourceName);
            if (future != null) {
                problems.add(future);
            }
        }
        lanes.forEach(l -> l.table().flushAll());
        sink.flush();
    }

    /**
     * A source that buffers packets itself (a live ring): each lane decodes and aggregates on its capture thread,
     * no queue and no copy; what fails downstream (a sink that cannot write) ends the source and is rethrown as a
     * hand-off's failure is ({@code "flows: ..."}).
     */
    private void runOnCaptureThreads(PacketSource source) throws CaptureException {
        try {
            source.run(lanes.stream().map(Lane::clock).toList());
        } catch (RuntimeException e) {
            throw new IllegalStateException("flows: " + e.getMessage(), e);
        }
    }

    private void runHandedOff(PacketSource source) throws CaptureException {
        List<PacketHandoff> hs = new ArrayList<>(lanes.size());
        for (Lane l : lanes) {
            hs.add(new PacketHandoff(HANDOFF_CAPACITY, l.clock(), l.table()::advanceTime, IDLE_TICK_MILLIS,
                    source::stop));
        }
        handoffs = List.copyOf(hs);
        try {
            source.run(hs);
        } finally {
            RuntimeException first = null;
            for (PacketHandoff h : hs) {
                try {
                    h.close();
                } catch (RuntimeException e) {
                    first = first == null ? e : first;
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }

    /** Messages about input not read whole, in the order met; empty when all was read and decoded. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** What the decoders made of the packets, every worker's added up (a copy when there are several). */
    @Override
    public DecodeCounters counters() {
        if (lanes.size() == 1) {
            return lanes.get(0).packets().counters();
        }
        return DecodeCounters.sum(lanes.stream().map(l -> l.packets().counters()).toList());
    }

    /** The first worker's flow table: the only one of a file replay or a one-worker capture. */
    public FlowTable table() {
        return lanes.get(0).table();
    }

    @Override
    public int workers() {
        return lanes.size();
    }

    @Override
    public long activeFlows() {
        return lanes.stream().mapToLong(l -> l.table().size()).sum();
    }

    @Override
    public long flowsCreated() {
        return lanes.stream().mapToLong(l -> l.table().flowsCreated()).sum();
    }

    @Override
    public long evictions() {
        return lanes.stream().mapToLong(l -> l.table().evictions()).sum();
    }

    /** Records exported so far. */
    public long records() {
        return lanes.stream().mapToLong(l -> l.records().count()).sum();
    }

    /** Packets skipped because they were dated more than 5 min ahead of the host clock ({@link ClockCheck}). */
    public long clockRefused() {
        return lanes.stream().mapToLong(l -> l.clock().refused()).sum();
    }

    /** Live packets dropped because aggregation fell behind the capture (0 without a handoff); any thread. */
    @Override
    public long agentDrops() {
        return handoffs.stream().mapToLong(PacketHandoff::dropped).sum();
    }

    /** As {@link #agentDrops()}, of worker {@code worker} only. */
    @Override
    public long agentDrops(int worker) {
        List<PacketHandoff> hs = handoffs;
        return worker < hs.size() ? hs.get(worker).dropped() : 0;
    }

    /** The name of the source the records carry. */
    public String sourceName() {
        return sourceName;
    }

    static String unsupported(String source, int linkType) {
        return source + ": link type " + linkType + " is not supported (" + LinkTypeNames.name(linkType)
                + "): its packets are not counted";
    }
}
