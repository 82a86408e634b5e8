package io.siteflow.agent.publish.kafka;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.L7Protocol;

/** Flow records for publisher tests. */
final class Flows {
    private Flows() {
    }

    static FlowRecord flow(int n, String src, String dst) {
        return FlowRecord.builder().id("run1-" + n).agent("agent-1").iface("eth0")
                .time(1_764_000_000_000L + n, 1_764_000_000_500L + n).endpoints(6, src, 40000 + n, dst, 1521)
                .forward(1000 + n, 10, 1140 + n, 0x1b).reverse(2000, 12, 2168, 0x1b).rttMicros(6500L)
                .l7(L7Protocol.ORACLE_TNS).build();
    }
}
