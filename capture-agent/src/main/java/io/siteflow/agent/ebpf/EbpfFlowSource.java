package io.siteflow.agent.ebpf;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.metrics.CaptureReadings;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.source.FlowSource;
import io.siteflow.model.Cidr;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code siteflow capture -i IFACE --backend ebpf}: flows aggregated in the kernel by {@link FlowProgram}, drained
 * every {@link #DRAIN_INTERVAL_MS} ms into {@link KernelFlows}, which gives the records to the sink on the agent's
 * active and idle timeouts (capture-agent/docs/ebpf.md). {@link #open} loads and attaches (so a missing capability
 * fails before {@code capturing on}); {@link #run} drains until {@link #stop()}, then detaches, drains what is left
 * and ends every flow. {@code received} counts the packets the program aggregated (in the flow map or, for new flows
 * that found it full, through the overflow ring buffer), {@code droppedKernel} the packets that found both full. The
 * {@code payloads} ring buffer's records (the first payload bytes of each direction, the changes of direction of DB
 * flows) give the records their {@code l7}, {@code sni} and DB calls ({@link FlowPayload}). Threads as {@link FlowSource} says.
 */
public final class EbpfFlowSource implements FlowSource, CaptureReadings {
    /** How often the kernel map is swapped and drained. */
    static final long DRAIN_INTERVAL_MS = 1000;

    private final FlowProgram program;
    private final String iface;
    private final FlowTableConfig config;
    private final String agent;
    private final String runId;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile KernelCounters last = KernelCounters.ZERO;
    private final boolean keepSni;
    private volatile long payloadUnmatched;
    private volatile boolean closed;
    private volatile long activeFlows;
    private volatile long flowsCreated;
    private volatile long evictions;

    private EbpfFlowSource(FlowProgram program, String iface, FlowTableConfig config, String agent, String runId,
            boolean keepSni) {
        this.program = program;
        this.keepSni = keepSni;
        this.iface = iface;
        this.config = config;
        this.agent = agent;
        this.runId = runId;
    }

    /**
     * Loads the program and attaches it to {@code iface} (in the calling thread's network namespace), with the
     * {@code -F} networks in the kernel; each kernel flow map holds {@code min(maxFlows, 65,536)} flows. Until
     * {@link #run} starts, nothing drains the maps.
     *
     * @throws CaptureFailure what is missing, naming it, with a hint at {@code --backend pcap}
     */
    public static EbpfFlowSource open(String iface, List<Cidr> remoteCidrs, FlowTableConfig config, String agent,
            String runId) throws CaptureFailure {
        return open(iface, remoteCidrs, config, agent, runId, KernelPayload.FRAME_MAX, true);
    }

    /**
     * As {@link #open(String, List, FlowTableConfig, String, String)}, with the payload the signatures see: the first
     * {@code min(snaplen, 512)} frame bytes of each direction's first 4 payload segments, as a libpcap capture with
     * that snap length would give them; {@code keepSni} false for {@code --no-sni}.
     */
    public static EbpfFlowSource open(String iface, List<Cidr> remoteCidrs, FlowTableConfig config, String agent,
            String runId, int snaplen, boolean keepSni) throws CaptureFailure {
        int mapEntries = Math.min(config.maxFlows(), FlowProgram.MAX_MAP_ENTRIES);
        return new EbpfFlowSource(FlowProgram.open(iface, remoteCidrs, mapEntries, snaplen), iface, config, agent,
                runId, keepSni);
    }

    /** For the start-up line: what this source does instead of the packet path, and the options it ignores. */
    public String startNote(int workers) {
        String stale = program.staleRemoved();
        return " (ebpf: flows aggregated in the kernel" + (workers > 1 ? "; --workers " + workers
                + " ignored, the kernel spreads the work" : "") + (stale == null ? "" : "; removed the filter a "
                + "previous agent left on " + stale) + ")";
    }

    @Override
    public void run(FlowSink sink) throws CaptureFailure {
        KernelFlows flows = new KernelFlows(config, new RecordFactory(agent, iface, runId), sink, keepSni,
                new KernelFlows.Decisions() {
                    @Override
                    public void verdict(KernelFlows.Key key, int verdict) {
                        program.verdict(key, verdict);
                    }

                    @Override
                    public void ended(KernelFlows.Key key) {
                        program.forget(key);
                    }
                });
        try {
            while (!awaitStop()) {
                drain(flows, false);
                flows.expire(nowNanos());
                publish(flows);
            }
            program.detach();
            drain(flows, true);
            flows.flushAll();
            publish(flows);
            sink.flush();
        } finally {
            program.detach();
        }
    }

    private boolean awaitStop() {
        try {
            return stopped.await(DRAIN_INTERVAL_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private void drain(KernelFlows flows, boolean all) throws CaptureFailure {
        long toWall = nowNanos() - System.nanoTime(); // bpf_ktime_get_ns and System.nanoTime: CLOCK_MONOTONIC
        if (all) {
            program.drainAll(e -> flows.merge(e, toWall), flows::payload);
        } else {
            program.drain(e -> flows.merge(e, toWall), flows::payload);
        }
        flows.settle();
        last = program.counters();
    }

    private void publish(KernelFlows flows) {
        activeFlows = flows.size();
        flowsCreated = flows.flowsCreated();
        evictions = flows.evictions();
        payloadUnmatched = flows.payloadUnmatched();
    }

    /**
     * The program's own meters: {@code siteflow_agent_ebpf_map_full_total} (packets of new flows that found the
     * flow map full and went through the overflow ring buffer: counted, without a handshake RTT),
     * {@code siteflow_agent_ebpf_payload_records_total} and {@code siteflow_agent_ebpf_payload_lost_total} (records
     * of the payloads ring buffer sent, and lost because it was full: a flow may then miss its L7, SNI or a DB call).
     * Packets lost because the overflow ring was full too are {@code siteflow_agent_kernel_drops_total}.
     */
    @Override
    public void registerMeters(MeterRegistry registry) {
        FunctionCounter.builder("siteflow.agent.ebpf.map.full", this, s -> s.kernelCounters().mapFull())
                .description("packets of new flows that found the kernel flow map full (sent through the overflow "
                        + "ring buffer, counted)").register(registry);
        FunctionCounter.builder("siteflow.agent.ebpf.payload.records", this, s -> s.kernelCounters().payloadRecords())
                .description("payload and direction-change records sent for L7, SNI and DB calls").register(registry);
        FunctionCounter.builder("siteflow.agent.ebpf.payload.lost", this, s -> s.kernelCounters().payloadLost())
                .description("payload records lost because the ring buffer was full (L7, SNI or DB calls missed)")
                .register(registry);
    }

    private static long nowNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Override
    public void stop() {
        stopped.countDown();
    }

    /** The program's counters now (the last ones read once closed). */
    public KernelCounters kernelCounters() {
        if (!closed) {
            synchronized (this) {
                if (!closed) {
                    last = program.counters();
                }
            }
        }
        return last;
    }

    @Override
    public CaptureReadings readings() {
        return this;
    }

    @Override
    public List<String> problems() {
        return List.of();
    }

    @Override
    public String name() {
        return iface;
    }

    @Override
    public CaptureStats stats() {
        KernelCounters c = kernelCounters();
        return new CaptureStats(c.counted(), c.lost(), 0);
    }

    /** The program's counts in the decoder's words: IP, not IP, malformed, kept, outside {@code -F}. */
    @Override
    public DecodeCounters counters() {
        KernelCounters c = kernelCounters();
        return DecodeCounters.of(c.seen() - c.notIp() - c.malformed(), c.notIp(), c.malformed(),
                c.counted() + c.lost(), c.filtered());
    }

    @Override
    public int workers() {
        return 1;
    }

    @Override
    public long activeFlows() {
        return activeFlows;
    }

    @Override
    public long flowsCreated() {
        return flowsCreated;
    }

    @Override
    public long evictions() {
        return evictions;
    }

    @Override
    public long agentDrops() {
        return 0;
    }

    @Override
    public long agentDrops(int worker) {
        return 0;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            last = program.counters();
            closed = true;
            program.close();
        }
    }
}
