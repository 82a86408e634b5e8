package io.siteflow.agent.publish;

import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;
import java.util.List;

/** Hands every record to several sinks in order. Not thread-safe. */
public final class FanOutSink implements FlowSink {
    private final FlowSink[] sinks;

    public FanOutSink(List<FlowSink> sinks) {
        this.sinks = sinks.toArray(new FlowSink[0]);
    }

    @Override
    public void accept(FlowRecord r) {
        for (FlowSink s : sinks) {
            s.accept(r);
        }
    }

    @Override
    public void flush() {
        for (FlowSink s : sinks) {
            s.flush();
        }
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (FlowSink s : sinks) {
            try {
                s.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
