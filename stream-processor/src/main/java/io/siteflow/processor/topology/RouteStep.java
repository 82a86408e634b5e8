package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.verdict.AuditPair;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Classifies a record with the site model in force and forwards it once per audited server it concerns (the
 * initiator towards the responder's site, the responder towards the initiator's site), keyed by that server's
 * address, so that everything about one server meets in one task. Records concerning no audited pair, or
 * arriving while no valid model is in force, are dropped and counted.
 *
 * <p>Two shortcuts, neither changing a result. A copy for a server is not forwarded when the record comes from the
 * host agent of another listed host: that agent is never the server's observer ({@link ObserverRule}), so the
 * audit would drop it. A copy is marked {@link Routed#here() here} when this task audits its server: the record's
 * key is the server's address (a host agent keys its records by its own server) and the server's
 * {@code by-server} partition, chosen as the producer's default partitioner chooses it, is this task's
 * partition; it then goes straight to the audit instead of through the topic.
 */
final class RouteStep implements Processor<byte[], FlowRecord, String, Routed> {
    private final ModelCache models;
    private final PipelineMetrics metrics;
    private final int partitions;
    private ProcessorContext<String, Routed> context;
    private StateStore sites;
    private int partition;

    RouteStep(ModelCache models, PipelineMetrics metrics, int partitions) {
        this.models = models;
        this.metrics = metrics;
        this.partitions = partitions;
    }

    @Override
    public void init(ProcessorContext<String, Routed> context) {
        this.context = context;
        this.sites = context.getStateStore(TopologySpec.SITES_STORE);
        this.partition = context.taskId().partition();
    }

    @Override
    public void process(Record<byte[], FlowRecord> rec) {
        Optional<ActiveModel> m = models.inForce(sites);
        if (m.isEmpty()) {
            metrics.noModel.increment();
            return;
        }
        FlowRecord r = rec.value();
        Flow f = Classifier.flowOf(r);
        Classification c = m.get().classifier().classify(f);
        Optional<AuditPair> asSrc = m.get().pair(f.src(), c.dstSite().name());
        Optional<AuditPair> asDst = m.get().pair(f.dst(), c.srcSite().name());
        if (asSrc.isEmpty() && asDst.isEmpty()) {
            metrics.unaudited.increment();
            return;
        }
        asSrc.ifPresent(p -> forward(rec, p, m.get()));
        asDst.ifPresent(p -> forward(rec, p, m.get()));
    }

    private void forward(Record<byte[], FlowRecord> rec, AuditPair pair, ActiveModel m) {
        String agent = rec.value().agent();
        String server = pair.server().address();
        if (!agent.equals(pair.server().name()) && m.isHostAgent(agent)) {
            metrics.otherObserver.increment();
            return;
        }
        context.forward(rec.withKey(server).withValue(new Routed(rec.value(), auditedHere(rec.key(), server))));
    }

    private boolean auditedHere(byte[] key, String server) {
        byte[] address = server.getBytes(StandardCharsets.UTF_8);
        return Arrays.equals(key, address) && Utils.toPositive(Utils.murmur2(address)) % partitions == partition;
    }
}
