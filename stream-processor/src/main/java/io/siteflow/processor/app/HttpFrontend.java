package io.siteflow.processor.app;

import io.siteflow.processor.query.InstanceClient;

/**
 * The HTTP API and dashboard, started by {@code siteflow process} once Kafka Streams runs: the hook between
 * the processor and the HTTP side. {@link ProcessCommand} uses {@link JavalinFrontend} or is given one; given
 * none, the processor runs without HTTP. The HTTP settings are in {@link ProcessorRuntime#settings()}.
 */
public interface HttpFrontend extends AutoCloseable {

    /** Serves the runtime's queries and metrics; returns once listening. */
    void start(ProcessorRuntime rt);

    /** Stops serving; idempotent. */
    @Override
    void close();

    /**
     * How this frontend reaches the other instances' stores (their internal API), asked once before the
     * runtime is built. The default serves a single instance.
     */
    default InstanceClient instanceClient() {
        return InstanceClient.NONE;
    }
}
