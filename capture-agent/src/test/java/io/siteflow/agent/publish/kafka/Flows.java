package io.siteflow.agent.publish.kafka;

import io.siteflow.model.FlowRecord;

/** Flow records for publisher tests. */
final class Flows {
    private Flows() {
    }

    static FlowRecord flow(int n, String src, String dst) {
        return new FlowRecord(FlowRecord.SCHEMA, "agent-1", "eth0", 1_764_000_000_000L + n, 1_764_000_000_500L + n,
                6, src, 40000 + n, dst, 1521, 1000 + n, 10, 2000, 12, 1140 + n, 2168, 0x1b, 0x1b, 6500L,
                "oracle-tns", null, false, "run1-" + n);
    }
}
