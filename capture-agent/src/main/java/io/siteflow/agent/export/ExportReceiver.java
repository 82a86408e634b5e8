package io.siteflow.agent.export;

/** Takes the flows an {@link ExportDecoder} decodes, one call per data record, on the decoder's thread. */
@FunctionalInterface
public interface ExportReceiver {

    /**
     * One decoded flow; {@code flow} is reused after the call returns.
     *
     * @param exporter the exporter (its address and counters)
     * @param domain   observation domain (IPFIX), source id (v9), engine type and id (v5), 0 to 2^32 - 1
     * @param sampling the sampling rate that applies to this record (1: not sampled)
     */
    void flow(ExporterState exporter, long domain, ExportFlow flow, long sampling);
}
