package io.siteflow.rules.verdict;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Category;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a verdict is computed from: the traffic between one audited server and one remote site in one window
 * (or since start). An accumulator: {@link #add} folds in one flow record, {@link #merge} folds in another
 * aggregate, and {@link PairAggregateJson} writes and reads it, so the same arithmetic runs in the offline
 * audit and in a Kafka Streams aggregation. Bytes are IP bytes in both directions ({@code bytes + rbytes}).
 * Not thread-safe.
 */
public final class PairAggregate {
    final long[] categoryBytes = new long[Category.all().length];
    final Map<String, Long> addressBytes = new TreeMap<>();
    final RttHistogram rtt = new RttHistogram();
    final DbConnections dbConnections = new DbConnections();
    final TopFlows topFlows = new TopFlows();
    final DbCallStats dbCalls = new DbCallStats();
    long records;
    /** The largest sampling rate of the sampled records added, 0 when none was ({@link SampledEstimate}). */
    int sampling;
    /** {@link SampledEstimate#squares} of the DB records and of the others. */
    long dbSquares;
    long otherSquares;
    /** Exporters' records of the pair that another observer counts, and their bytes ({@link #compareExporter}). */
    long exporterRecords;
    long exporterBytes;

    /**
     * Adds one record of a flow between the server and {@code remoteAddress}, an address of the remote site.
     *
     * @param r              the record (a delta since the flow's previous record)
     * @param c              its classification
     * @param remoteAddress  the end of the flow in the remote site, textual
     */
    public void add(FlowRecord r, Classification c, String remoteAddress) {
        addExceptConnection(r, c, remoteAddress);
        if (c.category() == Category.DB) {
            dbConnections.add(connectionOf(r), r.start(), r.end());
        }
    }

    /**
     * {@link #add} without the DB connection of a DB record, for a caller that keeps connection lifetimes
     * elsewhere (under {@link #connectionOf}); everything else is added as {@link #add} adds it.
     */
    public void addExceptConnection(FlowRecord r, Classification c, String remoteAddress) {
        long bytes = r.bytes() + r.rbytes();
        records++;
        categoryBytes[c.category().ordinal()] += bytes;
        addressBytes.merge(remoteAddress, bytes, Long::sum);
        if (r.rttMicros() != null) {
            rtt.add(r.rttMicros());
        }
        if (r.sampled() != null) {
            sampling = Math.max(sampling, r.sampled());
            if (c.category() == Category.DB) {
                dbSquares += SampledEstimate.squares(r);
            } else {
                otherSquares += SampledEstimate.squares(r);
            }
        }
        if (c.category() == Category.DB) {
            dbCalls.add(r);
        }
        if (c.category() != Category.DB && bytes > 0) {
            topFlows.add(new TopFlow(r.proto(), r.src(), r.srcPort(), r.dst(), r.dstPort(),
                    r.l7WireName() == null ? "" : r.l7WireName(), c.category(), c.rule().name(), bytes));
        }
    }

    /**
     * Notes a flow exporter's record of the pair that did not count because another observer (the server's host
     * agent) counts the pair: compared, not added.
     */
    public void compareExporter(FlowRecord r) {
        exporterRecords++;
        exporterBytes += r.totalBytes();
    }

    /** The exporters' bytes against the observer's, empty when no exporter record was compared. */
    public java.util.Optional<ExporterComparison> exporters() {
        return exporterRecords == 0 ? java.util.Optional.empty()
                : java.util.Optional.of(new ExporterComparison(exporterBytes, crossBytes() - exporterBytes));
    }

    /** The DB connection a record belongs to, as {@link DbConnections} keys it: {@code proto src srcPort dst dstPort}. */
    public static String connectionOf(FlowRecord r) {
        return connectionOf(r.proto(), r.src(), r.srcPort(), r.dst(), r.dstPort());
    }

    /** {@link #connectionOf(FlowRecord)} of a record with these fields. */
    public static String connectionOf(int proto, String src, int srcPort, String dst, int dstPort) {
        return proto + " " + src + " " + srcPort + " " + dst + " " + dstPort;
    }

    /** Folds another aggregate of the same pair into this one. */
    public PairAggregate merge(PairAggregate other) {
        for (int i = 0; i < categoryBytes.length; i++) {
            categoryBytes[i] += other.categoryBytes[i];
        }
        other.addressBytes.forEach((a, b) -> addressBytes.merge(a, b, Long::sum));
        rtt.merge(other.rtt);
        dbConnections.merge(other.dbConnections);
        topFlows.merge(other.topFlows);
        dbCalls.merge(other.dbCalls);
        records += other.records;
        sampling = Math.max(sampling, other.sampling);
        dbSquares += other.dbSquares;
        otherSquares += other.otherSquares;
        exporterRecords += other.exporterRecords;
        exporterBytes += other.exporterBytes;
        return this;
    }

    /** Every byte between the server and the remote site. */
    public long crossBytes() {
        return Arrays.stream(categoryBytes).sum();
    }

    /** Bytes of one category. */
    public long bytes(Category c) {
        return categoryBytes[c.ordinal()];
    }

    /** Bytes per remote address, by address (a copy). */
    public Map<String, Long> addressBytes() {
        return new TreeMap<>(addressBytes);
    }

    public RttHistogram rtt() {
        return rtt;
    }

    public DbConnections dbConnections() {
        return dbConnections;
    }

    /** The DB calls of the records classified DB. */
    public DbCallStats dbCalls() {
        return dbCalls;
    }

    public TopFlows topFlows() {
        return topFlows;
    }

    /** The DB share's estimate mark and bound, empty when no record added was sampled. */
    public java.util.Optional<SampledEstimate> estimate() {
        return SampledEstimate.of(sampling, dbSquares, otherSquares, bytes(Category.DB), crossBytes());
    }

    /** Number of flow records added. */
    public long records() {
        return records;
    }
}
