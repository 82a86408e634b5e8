package io.siteflow.agent.pipeline;

import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;

/** Lets several workers' flow tables write into one sink: one call at a time, in the order the lock is taken. */
final class SerialSink implements FlowSink {
    private final FlowSink sink;

    SerialSink(FlowSink sink) {
        this.sink = sink;
    }

    @Override
    public synchronized void accept(FlowRecord r) {
        sink.accept(r);
    }

    @Override
    public synchronized void flush() {
        sink.flush();
    }

    @Override
    public synchronized void close() {
        sink.close();
    }
}
