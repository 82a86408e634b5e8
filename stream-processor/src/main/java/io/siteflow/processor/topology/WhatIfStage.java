package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.processor.topology.whatif.WhatIfStores;
import io.siteflow.processor.topology.whatif.WhatIfUpdate;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.whatif.ServerTraffic;
import io.siteflow.rules.whatif.WhatIf;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;

/**
 * The what-if stage (stream-processor/docs/topology.md, "What-if stage"): keeps, per server of the model and UTC
 * day, what {@code siteflow whatif} computes its answer from ({@link ServerTraffic}: bytes, DB calls and flows per
 * peer site, the span), and the site-pair RTTs of every record, so that {@code /api/whatif} answers from the stores
 * ({@code query.StoreWhatIf}) instead of reading {@code siteflow.flows}. Every classified record whose source or
 * destination is a host of its model, and whose agent may observe that host ({@code ObserverRule.mayObserve}),
 * gives that server a {@link WhatIfUpdate} keyed by its address; a record's RTT sample (both ends in known sites)
 * travels with its first update, or alone keyed by its source address. Through the {@code whatif-by-server} topic
 * each server's updates meet in one task, where {@link WhatIfStep} applies the observer rule and adds them.
 * Stateless; the hosts of the last model seen are cached (a record carries its model).
 */
public final class WhatIfStage implements ClassifiedStage {

    @Override
    public String name() {
        return WhatIfStores.NAME;
    }

    @Override
    public void attach(KStream<byte[], Classified> classified, TopologyConfig config, PipelineMetrics metrics) {
        Hosts hosts = new Hosts();
        classified
                // the record's update per server it concerns, or its RTT sample alone; nothing else
                .flatMap((key, c) -> hosts.updates(c), Named.as("whatif-select"))
                // to the task of the server: a sub-topology of its own, after the isolation stage's
                .repartition(Repartitioned.<String, WhatIfUpdate>as(WhatIfStores.BY_SERVER)
                        .withKeySerde(WhatIfStores.STRING).withValueSerde(WhatIfStores.UPDATE)
                        .withNumberOfPartitions(config.partitions()))
                // observer rule per server, the day's inputs, the RTTs, the retention
                .process(WhatIfStep.supplier(), Named.as(WhatIfStores.NAME));
    }

    /** The hosts by address of the last model seen. Thread-safe (the stream threads share it). */
    static final class Hosts {
        private record Cached(ActiveModel model, Map<String, Host> byAddress) {
        }

        private volatile Cached last;

        private Cached of(ActiveModel m) {
            Cached c = last;
            if (c == null || c.model() != m) {
                Map<String, Host> byAddress = new HashMap<>();
                m.model().hosts().forEach(h -> byAddress.put(h.address(), h));
                c = new Cached(m, byAddress);
                last = c;
            }
            return c;
        }

        /** The record's updates keyed by server address (its RTT sample keyed by its source when it has no server). */
        List<KeyValue<String, WhatIfUpdate>> updates(Classified c) {
            Cached m = of(c.model());
            FlowRecord r = c.record();
            Optional<WhatIfUpdate.Rtt> rtt = WhatIf.rttPairOf(r, c.classification())
                    .map(p -> new WhatIfUpdate.Rtt(p, r.rttMicros()));
            List<KeyValue<String, WhatIfUpdate>> out = new ArrayList<>(2);
            for (String end : r.src().equals(r.dst()) ? List.of(r.src()) : List.of(r.src(), r.dst())) {
                Host server = m.byAddress().get(end);
                String observer = io.siteflow.rules.observer.ObserverRule.observerOf(r);
                if (server == null || !c.model().observers().mayObserve(server, observer)) {
                    continue;
                }
                WhatIfUpdate.Served s = new WhatIfUpdate.Served(server.name(), observer,
                        ServerTraffic.entryOf(r, c.classification(), server.address()));
                out.add(KeyValue.pair(server.address(), new WhatIfUpdate(Optional.of(s), rtt, r.start())));
                rtt = Optional.empty(); // one sample per record
            }
            if (rtt.isPresent()) {
                out.add(KeyValue.pair(r.src(), new WhatIfUpdate(Optional.empty(), rtt, r.start())));
            }
            return out;
        }
    }
}
