package io.siteflow.agent.flow;

import io.siteflow.model.FlowRecord;

/**
 * Where exported flow records go: Kafka, JSON lines, the text report. Called from one thread (the flow
 * table's); implementations that hand records to another thread say so.
 */
public interface FlowSink extends AutoCloseable {

    /** Takes one record. Must not block for long; must not throw for a record it cannot deliver now. */
    void accept(FlowRecord r);

    /** Pushes buffered records out; called at the end of a capture and before a clean stop. */
    default void flush() {
    }

    @Override
    void close();

    /** A sink that hands every record to {@code consumer} and holds nothing to flush or close. */
    static FlowSink to(java.util.function.Consumer<FlowRecord> consumer) {
        return new FlowSink() {
            @Override
            public void accept(FlowRecord r) {
                consumer.accept(r);
            }

            @Override
            public void close() {
            }
        };
    }
}
