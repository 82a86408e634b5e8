package io.siteflow.agent.export;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the collector counts: datagrams, flow records, malformed input by kind, refused exporters and templates,
 * export loss from sequence numbers. Written by the decoding thread, read from any (values may lag). The first
 * malformed datagram of each kind is logged (WARN) with its message and kept ({@link #firstMessage}).
 */
public final class ExportCounters {
    private static final Logger LOG = LoggerFactory.getLogger(ExportCounters.class);
    private static final Malformed[] KINDS = Malformed.values();

    private final AtomicLong datagrams = new AtomicLong();
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong optionsRecords = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong lostRecords = new AtomicLong();
    private final AtomicLong lostPackets = new AtomicLong();
    private final AtomicLong sequenceResets = new AtomicLong();
    private final AtomicLong templatesExpired = new AtomicLong();
    private final AtomicLong sflowFlowSamples = new AtomicLong();
    private final AtomicLong sflowPackets = new AtomicLong();
    private final AtomicLong sflowNotIp = new AtomicLong();
    private final AtomicLong sflowCounterSamples = new AtomicLong();
    private final AtomicLong sflowInterfaceCounters = new AtomicLong();
    private final AtomicLong sflowSkippedRecords = new AtomicLong();
    private final AtomicLong sflowLostDatagrams = new AtomicLong();
    private final AtomicLong sflowAgentDrops = new AtomicLong();
    private final AtomicLongArray malformed = new AtomicLongArray(KINDS.length);
    private final AtomicReferenceArray<String> first = new AtomicReferenceArray<>(KINDS.length);
    private final AtomicReferenceArray<String> last = new AtomicReferenceArray<>(KINDS.length);

    void datagram() {
        datagrams.incrementAndGet();
    }

    void record() {
        records.incrementAndGet();
    }

    void optionsRecord() {
        optionsRecords.incrementAndGet();
    }

    void refuse() {
        refused.incrementAndGet();
    }

    /** Counts one datagram the receive pool could not take (received, not decoded); logs the first. */
    void drop(String message) {
        datagrams.incrementAndGet();
        if (dropped.incrementAndGet() == 1) {
            LOG.warn("collect: {} (the first; further ones are counted, not logged)", message);
        }
    }

    void lostRecords(long n) {
        lostRecords.addAndGet(n);
    }

    void lostPackets(long n) {
        lostPackets.addAndGet(n);
    }

    void sequenceReset() {
        sequenceResets.incrementAndGet();
    }

    void templateExpired() {
        templatesExpired.incrementAndGet();
    }

    void countSflowFlowSample() {
        sflowFlowSamples.incrementAndGet();
    }

    void countSflowPacket() {
        sflowPackets.incrementAndGet();
    }

    void countSflowNotIp() {
        sflowNotIp.incrementAndGet();
    }

    void countSflowCounterSample() {
        sflowCounterSamples.incrementAndGet();
    }

    void countSflowInterfaceCounters() {
        sflowInterfaceCounters.incrementAndGet();
    }

    void countSflowSkippedRecord() {
        sflowSkippedRecords.incrementAndGet();
    }

    void sflowLostDatagrams(long n) {
        sflowLostDatagrams.addAndGet(n);
    }

    void sflowAgentDrops(long n) {
        sflowAgentDrops.addAndGet(n);
    }

    /** Counts one fault; logs it when it is the first of its kind. The message names exporter and offset. */
    void malformed(Malformed kind, String message) {
        malformed.incrementAndGet(kind.ordinal());
        last.set(kind.ordinal(), message);
        if (first.compareAndSet(kind.ordinal(), null, message)) {
            LOG.warn("collect: {} (first of kind {}; further ones are counted, not logged)", message, kind);
        }
    }

    /** Datagrams received from accepted exporters (decoded or not). */
    public long datagrams() {
        return datagrams.get();
    }

    /** Flow data records decoded (options data records not included). */
    public long records() {
        return records.get();
    }

    /** Options data records decoded (sampling and other exporter metadata). */
    public long optionsRecords() {
        return optionsRecords.get();
    }

    /** Datagrams from exporters outside {@code --exporter}, or beyond the exporter bound: not decoded. */
    public long refused() {
        return refused.get();
    }

    /**
     * Datagrams received from accepted exporters that the collector dropped because its receive pool was full
     * (decoding fell behind by more than the pool); counted in {@link #datagrams()} too.
     */
    public long dropped() {
        return dropped.get();
    }

    /** Flow records lost between exporter and collector (NetFlow v5 and IPFIX sequence numbers count records). */
    public long lostRecords() {
        return lostRecords.get();
    }

    /** Export packets lost between exporter and collector (NetFlow v9 sequence numbers count packets). */
    public long lostPackets() {
        return lostPackets.get();
    }

    /** Sequence numbers that went backwards (an exporter restarted, or datagrams reordered): not counted as loss. */
    public long sequenceResets() {
        return sequenceResets.get();
    }

    /** Templates dropped because the exporter did not refresh them within the template lifetime. */
    public long templatesExpired() {
        return templatesExpired.get();
    }

    /** sFlow flow samples and expanded flow samples read. */
    public long sflowFlowSamples() {
        return sflowFlowSamples.get();
    }

    /** sFlow sampled packet headers decoded into flows (IP packets). */
    public long sflowPackets() {
        return sflowPackets.get();
    }

    /** sFlow sampled headers that carry no IP packet, or of a header protocol not decoded: not in flows. */
    public long sflowNotIp() {
        return sflowNotIp.get();
    }

    /** sFlow counter samples and expanded counter samples read (not turned into flows). */
    public long sflowCounterSamples() {
        return sflowCounterSamples.get();
    }

    /** sFlow generic interface counter records (format 1) in counter samples. */
    public long sflowInterfaceCounters() {
        return sflowInterfaceCounters.get();
    }

    /** sFlow samples and records of formats not read, skipped by their length. */
    public long sflowSkippedRecords() {
        return sflowSkippedRecords.get();
    }

    /** sFlow datagrams lost between agent and collector, from the datagram sequence numbers per agent and sub-agent. */
    public long sflowLostDatagrams() {
        return sflowLostDatagrams.get();
    }

    /**
     * Packets the sFlow agents say they dropped before sampling (the flow samples' drops counter, the increase per
     * agent, sub-agent and data source).
     */
    public long sflowAgentDrops() {
        return sflowAgentDrops.get();
    }

    /** Faults of this kind. */
    public long malformed(Malformed kind) {
        return malformed.get(kind.ordinal());
    }

    /** Faults of every kind. */
    public long malformedTotal() {
        long n = 0;
        for (int i = 0; i < KINDS.length; i++) {
            n += malformed.get(i);
        }
        return n;
    }

    /** The message of the first fault of this kind, or null. */
    public String firstMessage(Malformed kind) {
        return first.get(kind.ordinal());
    }

    /** The message of the latest fault of {@code kind}, null when there was none (an offline reader names each). */
    public String lastMessage(Malformed kind) {
        return last.get(kind.ordinal());
    }

    /** The kinds seen so far with their counts, in declaration order. */
    public Map<Malformed, Long> malformedByKind() {
        Map<Malformed, Long> m = new EnumMap<>(Malformed.class);
        for (Malformed k : KINDS) {
            long n = malformed.get(k.ordinal());
            if (n > 0) {
                m.put(k, n);
            }
        }
        return m;
    }
}
