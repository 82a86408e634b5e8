package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.verdict.AuditPair;
import java.util.Optional;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Classifies a record with the site model in force and forwards it once per audited server it concerns (the
 * initiator towards the responder's site, the responder towards the initiator's site), keyed by that server's
 * address, so that everything about one server meets in one task. Records concerning no audited pair, or
 * arriving while no valid model is in force, are dropped and counted.
 */
final class RouteStep implements Processor<byte[], FlowRecord, String, FlowRecord> {
    private final ModelCache models;
    private final PipelineMetrics metrics;
    private ProcessorContext<String, FlowRecord> context;
    private StateStore sites;

    RouteStep(ModelCache models, PipelineMetrics metrics) {
        this.models = models;
        this.metrics = metrics;
    }

    @Override
    public void init(ProcessorContext<String, FlowRecord> context) {
        this.context = context;
        this.sites = context.getStateStore(TopologySpec.SITES_STORE);
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
        asSrc.ifPresent(p -> context.forward(rec.withKey(f.src())));
        asDst.ifPresent(p -> context.forward(rec.withKey(f.dst())));
    }
}
