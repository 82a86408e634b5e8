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
    private final AtomicLong lostRecords = new AtomicLong();
    private final AtomicLong lostPackets = new AtomicLong();
    private final AtomicLong sequenceResets = new AtomicLong();
    private final AtomicLong templatesExpired = new AtomicLong();
    private final AtomicLongArray malformed = new AtomicLongArray(KINDS.length);
    private final AtomicReferenceArray<String> first = new AtomicReferenceArray<>(KINDS.length);

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

    /** Counts one fault; logs it when it is the first of its kind. The message names exporter and offset. */
    void malformed(Malformed kind, String message) {
        malformed.incrementAndGet(kind.ordinal());
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
