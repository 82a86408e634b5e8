package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.wire.Topics;
import io.siteflow.processor.topology.isolation.EdgeUpdate;
import io.siteflow.processor.topology.isolation.IsolationStores;
import io.siteflow.rules.isolation.HostRtt;
import io.siteflow.rules.isolation.IsolationDecision;
import io.siteflow.rules.isolation.IsolationEdge;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.IsolationInputsBuilder;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The isolation-policy stage (stream-processor/docs/topology.md, "Isolation stage"): every classified record is
 * decided against its model's policy ({@link IsolationEvaluator#orEmpty}: a model without {@code isolation:} decides
 * every cross-site flow UNLISTED, which is what a proposal is made from, and raises no alert), and, when in scope or
 * when it has a handshake RTT, re-keyed by its isolation edge ({@code client|server|serverPort|proto}) through the
 * {@code isolation-by-edge} topic to the task of its edge, where {@link IsolationStep} keeps the edges per window,
 * their observers, the RTTs and the alert states, and writes {@code siteflow.isolation} and {@code siteflow.alerts}.
 * The stage's own state and codecs are in {@code topology.isolation}; this class and the step, which read
 * {@link Classified} and write {@link Alert}s, stay here, so that the wiring line ({@link SiteflowTopology#STAGES})
 * makes no package cycle. Stateless; the evaluator of the last model seen is cached (a record carries its model).
 */
public final class IsolationStage implements ClassifiedStage {

    @Override
    public String name() {
        return IsolationStores.NAME;
    }

    @Override
    public void attach(KStream<byte[], Classified> classified, TopologyConfig config, PipelineMetrics metrics) {
        Evaluators evaluators = new Evaluators();
        KStream<String, String> out = classified
                // decide, make the edge and the RTT entries; nothing for a record out of scope without an RTT
                .flatMap((key, c) -> evaluators.update(c), Named.as("isolation-decide"))
                // to the task of the edge: its sub-topology of its own (the flows sub-topology keeps its number)
                .repartition(Repartitioned.<String, EdgeUpdate>as(IsolationStores.BY_EDGE)
                        .withKeySerde(IsolationStores.STRING).withValueSerde(IsolationStores.UPDATE)
                        .withNumberOfPartitions(config.partitions()))
                // observer per edge, windows, RTTs, alerts, the metric
                .process(IsolationStep.supplier(config, metrics), Named.as(IsolationStores.NAME));
        // each closed window's edges (key edge|windowStart) and the alerts, each forwarded to its own child
        out.to(Topics.ISOLATION, Produced.with(IsolationStores.STRING, IsolationStores.STRING)
                .withName(IsolationStep.EDGES_OUT));
        out.to(Topics.ALERTS, Produced.with(IsolationStores.STRING, IsolationStores.STRING)
                .withName(IsolationStep.ALERTS_OUT));
    }

    /**
     * The evaluator of the last model seen (models change rarely; a record carries its own), and what it decided per
     * edge, category and L7 (the decision, groups and nearest allow rule depend on nothing else): a record of an edge
     * already decided is not decided again, its edge is the known one with its own counts
     * ({@link IsolationEdge#withRecord}). At most {@value #MAX_DECIDED} entries per model (then forgotten at once).
     * Thread-safe (the stream threads share it).
     */
    static final class Evaluators {
        static final int MAX_DECIDED = 100_000;

        /** What the policy made of an edge, category and L7: its edge, or none when out of scope. */
        private record Decided(Optional<IsolationEdge> edge) {
        }

        private record Cached(ActiveModel model, IsolationEvaluator evaluator, boolean policy,
                              ConcurrentHashMap<String, Decided> decided) {
        }

        private volatile Cached last;

        private Cached of(ActiveModel m) {
            Cached c = last;
            if (c == null || c.model() != m) {
                c = new Cached(m, IsolationEvaluator.orEmpty(m.classifier()), m.model().isolation().isPresent(),
                        new ConcurrentHashMap<>());
                last = c;
            }
            return c;
        }

        /** The record's update keyed by its edge, none when it is out of scope and has no RTT entry. */
        List<KeyValue<String, EdgeUpdate>> update(Classified c) {
            Cached e = of(c.model());
            FlowRecord r = c.record();
            String key = IsolationEdge.key(r.src(), r.dst(), r.dstPort(), r.proto());
            String decidedKey = key + "|" + c.classification().category().ordinal() + "|" + r.l7Protocol().ordinal();
            Decided known = e.decided().get(decidedKey);
            Optional<IsolationEdge> edge;
            if (known == null) {
                Optional<IsolationDecision> d = e.evaluator().decide(c.flow(), c.classification());
                edge = d.map(x -> IsolationEdge.of(r, c.classification(), x, e.evaluator()));
                if (e.decided().size() >= MAX_DECIDED) {
                    e.decided().clear();
                }
                e.decided().put(decidedKey, new Decided(edge));
            } else {
                edge = known.edge().map(x -> x.withRecord(r));
            }
            List<HostRtt> rtts = IsolationInputsBuilder.rtts(r, c.classification());
            if (edge.isEmpty() && rtts.isEmpty()) {
                return List.of();
            }
            return List.of(KeyValue.pair(key, new EdgeUpdate(edge, rtts, r.start(), e.policy())));
        }
    }
}
