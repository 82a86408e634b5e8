package io.siteflow.agent.pipeline;

import io.siteflow.agent.capture.CaptureException;
import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.report.TextReport;
import io.siteflow.agent.signature.SignatureL7Tracker;
import java.util.ArrayList;
import java.util.List;

/**
 * One capture, wired in one place for the live agent ({@code siteflow capture}) and for file replays
 * ({@code FileReplay}, {@code siteflow audit}): packets of a {@link PacketSource} → clock check (packets dated more
 * than 5 min ahead of the host clock are skipped, {@link ClockCheck}) → decode → {@code -F} filter → flow table
 * (with the L7 signature tracker) → {@link FlowSink}, and the text report when one is given.
 *
 * <p>{@link #run} delivers the source's packets on the calling thread, or through a {@link PacketHandoff}
 * (a bounded queue and a worker thread) for live captures, then flushes every flow and the sink. Problems
 * with the input (unsupported link types, a corrupt or cut-short file) are collected in {@link #problems()},
 * in the order met; the capture goes on after each. Not thread-safe, except {@link #agentDrops()}.
 */
public final class Pipeline {
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

    private final String sourceName;
    private final FlowSink sink;
    private final RecordFactory records;
    private final FlowTable table;
    private final CapturePipeline packets;
    private final ClockCheck clock;
    private final List<String> problems = new ArrayList<>();
    private volatile PacketHandoff handoff;

    private Pipeline(String sourceName, Settings settings, FlowSink sink) {
        this.sourceName = sourceName;
        this.sink = sink;
        this.records = new RecordFactory(settings.agent(), sourceName, settings.runId());
        this.table = new FlowTable(settings.flowTable(), records, sink, new SignatureL7Tracker(settings.sni()));
        this.packets = new CapturePipeline(settings.filter(), table, settings.report(),
                lt -> problems.add(unsupported(sourceName, lt)));
        this.clock = new ClockCheck(packets, System::currentTimeMillis);
    }

    /** Wires a capture of the source named {@code sourceName} (an interface or a file name) into {@code sink}. */
    public static Pipeline wire(String sourceName, Settings settings, FlowSink sink) {
        return new Pipeline(sourceName, settings, sink);
    }

    /**
     * Delivers every packet of {@code source} until it ends or is stopped, then flushes every flow and the sink
     * (which is not closed). A corrupt or cut-short file ends the run with its message in {@link #problems()}.
     *
     * @param handOff true for live captures: packets are copied into a bounded queue on the capture thread and
     *                aggregated on a worker thread (a full queue drops and counts, {@link #agentDrops()})
     * @throws CaptureException     when the source fails otherwise (nothing is flushed then)
     * @throws IllegalStateException when the handoff's worker failed ({@code "flows: ..."})
     */
    public void run(PacketSource source, boolean handOff) throws CaptureException {
        try {
            if (handOff) {
                try (PacketHandoff h = new PacketHandoff(HANDOFF_CAPACITY, clock, table::advanceTime,
                        IDLE_TICK_MILLIS)) {
                    handoff = h;
                    source.run(h);
                }
            } else {
                source.run(clock);
            }
        } catch (CaptureFileException e) {
            problems.add(e.getMessage());
        }
        String future = clock.problem(sourceName);
        if (future != null) {
            problems.add(future);
        }
        table.flushAll();
        sink.flush();
    }

    /** Messages about input not read whole, in the order met; empty when all was read and decoded. */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    public DecodeCounters counters() {
        return packets.counters();
    }

    public FlowTable table() {
        return table;
    }

    /** Records exported so far. */
    public long records() {
        return records.count();
    }

    /** Packets skipped because they were dated more than 5 min ahead of the host clock ({@link ClockCheck}). */
    public long clockRefused() {
        return clock.refused();
    }

    /** Live packets dropped because aggregation fell behind the capture (0 without a handoff); any thread. */
    public long agentDrops() {
        PacketHandoff h = handoff;
        return h == null ? 0 : h.dropped();
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
