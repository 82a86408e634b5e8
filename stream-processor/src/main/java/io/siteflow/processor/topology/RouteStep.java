package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.verdict.AuditSide;
import io.siteflow.rules.verdict.DbSiteEnds;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The route step of {@link IngestStep}: forwards a record classified with the site model in force once per audited server it concerns
 * ({@link io.siteflow.rules.verdict.AuditRoutes#sides}: the initiator towards the responder's site, the responder
 * towards the initiator's site), keyed by that server's address, so that everything about one server meets in one
 * task. The classification and the side travel with the record ({@link Routed}) to the audit step. Records
 * concerning no audited pair are dropped and counted.
 *
 * <p>A DB record between an app server and a database of the model also goes to the task of the database's
 * address, for the site comparison ({@link io.siteflow.rules.verdict.DbSites}), whether or not it is audited.
 *
 * <p>Two shortcuts, neither changing a result. A copy for a server is not forwarded when the record comes from the
 * host agent of another listed host: that agent is never the server's observer ({@link io.siteflow.rules.observer.ObserverRule#mayObserve}), so the
 * audit would drop it. A copy goes straight to the audit (the child {@code here}) when this task audits its
 * server: the record's key is the server's address (a host agent keys its records by its own server) and the
 * server's {@code by-server} partition, chosen as the producer's default partitioner chooses it, is this task's
 * partition; the others go to the child {@code elsewhere}, towards the topic. Not thread-safe (one per task).
 */
final class RouteStep {
    private final PipelineMetrics metrics;
    private final int partitions;
    private final ProcessorContext<Object, Object> context;
    private final String here;
    private final String elsewhere;
    private final int partition;
    /** {@link #ownAddress} by server address, computed once per server. */
    private final Map<String, byte[]> ownServers = new HashMap<>();
    private final Function<String, byte[]> ownAddress = this::ownAddress;

    /**
     * @param context the processor's context, whose children {@code here} and {@code elsewhere} get the records
     */
    RouteStep(ProcessorContext<Object, Object> context, PipelineMetrics metrics, int partitions,
              String here, String elsewhere) {
        this.metrics = metrics;
        this.partitions = partitions;
        this.context = context;
        this.here = here;
        this.elsewhere = elsewhere;
        this.partition = context.taskId().partition();
    }

    /**
     * Forwards the record read as {@code rec} once per audited server it concerns, keyed by the server, at event
     * time {@code time}, with the headers read; {@code c} is its classification under {@code model}, the model in
     * force.
     */
    void route(Record<byte[], ?> rec, long time, Parsed parsed, ActiveModel model, Classification c) {
        Flow f = parsed.flow(); // built by the parse step
        boolean compared = toDbSites(rec, time, parsed.record(), c, model);
        List<AuditSide> sides = model.routes().sides(f, c);
        if (sides.isEmpty()) {
            if (!compared) {
                metrics.unaudited.increment();
            }
            return;
        }
        for (AuditSide side : sides) {
            forward(rec, time, parsed.record(), side, c, model);
        }
    }

    private void forward(Record<byte[], ?> rec, long time, FlowRecord r, AuditSide side, Classification c,
                         ActiveModel m) {
        String server = side.server();
        if (!m.observers().mayObserve(side.pair().server(), io.siteflow.rules.observer.ObserverRule.observerOf(r))) {
            metrics.otherObserver.increment();
            return;
        }
        context.forward(new Record<>(server, new Routed(r, side, c, m), time, rec.headers()),
                auditedHere(rec.key(), server) ? here : elsewhere);
    }

    /**
     * A DB record between an app server and a database goes, once more, to the task of the database's address,
     * where the site comparison's aggregate of the pair is kept: straight to the audit when the database's
     * {@code by-server} partition is this task's (the aggregate is cumulative only, so the order in which its
     * records arrive does not matter), else through the topic; not when it comes from the host agent of another
     * listed host than the app server.
     *
     * @return true when it went
     */
    private boolean toDbSites(Record<byte[], ?> rec, long time, FlowRecord r, Classification c, ActiveModel m) {
        Optional<DbSiteEnds.Ends> ends = m.dbSiteEnds().of(r, c);
        if (ends.isEmpty()) {
            return false;
        }
        if (!m.observers().mayObserve(ends.get().server(), io.siteflow.rules.observer.ObserverRule.observerOf(r))) {
            return false;
        }
        String database = ends.get().database().address();
        context.forward(new Record<>(database, new Routed(r, null, c, m), time, rec.headers()),
                ownServers.computeIfAbsent(database, ownAddress).length > 0 ? here : elsewhere);
        return true;
    }

    private boolean auditedHere(byte[] key, String server) {
        byte[] own = ownServers.computeIfAbsent(server, ownAddress);
        return own.length > 0 && Arrays.equals(key, own);
    }

    /** The server's address as a key when its {@code by-server} partition is this task's; else no bytes. */
    private byte[] ownAddress(String server) {
        byte[] address = server.getBytes(StandardCharsets.UTF_8);
        return io.siteflow.model.wire.FlowKeys.partition(server, partitions) == partition ? address : new byte[0];
    }
}
