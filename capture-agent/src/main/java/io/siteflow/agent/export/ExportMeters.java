package io.siteflow.agent.export;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;

/**
 * The collector's meters, {@code siteflow.agent.collect.*} (Prometheus: {@code siteflow_agent_collect_*_total}), read
 * from its {@link ExportCounters}; registered beside the agent's common meters. Static.
 */
final class ExportMeters {
    private ExportMeters() {
    }

    static void register(MeterRegistry r, ExportCounters c) {
        FunctionCounter.builder("siteflow.agent.collect.datagrams", c, ExportCounters::datagrams)
                .description("datagrams received from accepted exporters").register(r);
        FunctionCounter.builder("siteflow.agent.collect.records", c, ExportCounters::records)
                .description("flow data records decoded").register(r);
        FunctionCounter.builder("siteflow.agent.collect.dropped", c, ExportCounters::dropped)
                .description("datagrams dropped by the collector: its receive pool was full").register(r);
        FunctionCounter.builder("siteflow.agent.collect.refused", c, ExportCounters::refused)
                .description("datagrams from exporters not accepted (--exporter, or the exporter bound)").register(r);
        FunctionCounter.builder("siteflow.agent.collect.lost", c, ExportCounters::lostRecords).tag("unit", "records")
                .description("export loss from sequence numbers (NetFlow v5, IPFIX)").register(r);
        FunctionCounter.builder("siteflow.agent.collect.lost", c, ExportCounters::lostPackets).tag("unit", "packets")
                .description("export loss from sequence numbers (NetFlow v9)").register(r);
        FunctionCounter.builder("siteflow.agent.collect.sequence.resets", c, ExportCounters::sequenceResets)
                .register(r);
        FunctionCounter.builder("siteflow.agent.collect.templates.expired", c, ExportCounters::templatesExpired)
                .register(r);
        FunctionCounter.builder("siteflow.agent.collect.lost", c, ExportCounters::sflowLostDatagrams)
                .tag("unit", "sflow_datagrams").description("export loss from sFlow datagram sequence numbers")
                .register(r);
        FunctionCounter.builder("siteflow.agent.collect.sflow.samples", c, ExportCounters::sflowFlowSamples)
                .tag("type", "flow").register(r);
        FunctionCounter.builder("siteflow.agent.collect.sflow.samples", c, ExportCounters::sflowCounterSamples)
                .tag("type", "counter").register(r);
        FunctionCounter.builder("siteflow.agent.collect.sflow.packets", c, ExportCounters::sflowPackets)
                .description("sFlow sampled IP packets decoded into flows").register(r);
        FunctionCounter.builder("siteflow.agent.collect.sflow.agent.drops", c, ExportCounters::sflowAgentDrops)
                .description("packets sFlow agents dropped before sampling (their drops counters)").register(r);
        for (Malformed m : Malformed.values()) {
            FunctionCounter.builder("siteflow.agent.collect.malformed", c, x -> x.malformed(m))
                    .tag("kind", m.name().toLowerCase(Locale.ROOT)).register(r);
        }
    }
}
