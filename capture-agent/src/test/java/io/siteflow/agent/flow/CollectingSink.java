package io.siteflow.agent.flow;

import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;
import java.util.ArrayList;
import java.util.List;

/** Test sink that keeps every record (also used by the fuzz harnesses). */
public final class CollectingSink implements FlowSink {
    public final List<FlowRecord> records = new ArrayList<>();

    @Override
    public void accept(FlowRecord r) {
        records.add(r);
    }

    @Override
    public void close() {
    }
}
