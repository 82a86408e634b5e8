package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecordJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The route step's two shortcuts ({@link RouteStep}): a record read in its server's partition is audited without
 * the {@code by-server} topic, and a copy that another host's agent sent is not forwarded at all. Either way the
 * aggregates are those of the long way. The driver has one partition per topic (task partition 0).
 */
class RouteShortcutTest {
    private static final String WLS3 = "10.2.0.20";
    private static final String PAIR = WLS3 + "|region1";
    private static final String BY_SERVER = TopologyConfig.DEFAULT_APPLICATION_ID + "-by-server-repartition";
    @TempDir
    Path dir;

    @Test
    void auditsARecordReadInItsServersPartitionWithoutTheTopic() {
        try (Driver d = new Driver(dir).withSites(Flows.SITES_YAML)) {
            d.send(flow().agent("wls3").from(WLS3, 40000).to("10.1.0.10", 1521).at(T0).bytes(1000, 200));

            assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(1200);
            assertThat(d.driver.producedTopicNames()).doesNotContain(BY_SERVER);
        }
    }

    @Test
    void sendsARecordKeyedByAnotherAddressThroughTheTopic() {
        try (Driver d = new Driver(dir).withSites(Flows.SITES_YAML)) {
            d.sendRaw("10.2.0.99", FlowRecordJson.toBytes(
                    flow().agent("wls3").from(WLS3, 40000).to("10.1.0.10", 1521).at(T0).bytes(1000, 200).build()));

            assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(1200);
            assertThat(d.driver.producedTopicNames()).contains(BY_SERVER);
        }
    }

    @Test
    void sendsARecordWhoseServerHasAnotherPartitionThroughTheTopic() {
        byte[] key = WLS3.getBytes(StandardCharsets.UTF_8);
        int partitions = IntStream.rangeClosed(2, 16)
                .filter(n -> Utils.toPositive(Utils.murmur2(key)) % n != 0).findFirst().orElseThrow();
        try (Driver d = new Driver(TopologyConfig.DEFAULTS.withPartitions(partitions), dir)
                .withSites(Flows.SITES_YAML)) {
            d.send(flow().agent("wls3").from(WLS3, 40000).to("10.1.0.10", 1521).at(T0).bytes(1000, 200));

            assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(1200);
            assertThat(d.driver.producedTopicNames()).contains(BY_SERVER);
        }
    }

    @Test
    void dropsTheCopyThatAnotherHostsAgentSentForAServer() {
        try (Driver d = new Driver(dir).withSites(Flows.SITES_YAML)) {
            // wls1's agent sees wls1 -> wls3 (T3): wls3's observer rule would drop it (wls1 is not audited)
            d.send(flow().agent("wls1").from("10.1.0.11", 40000).to(WLS3, 7001).at(T0).bytes(700, 300));

            assertThat(d.cumulative(PAIR)).isNull();
            assertThat(d.metrics.otherObserver()).isEqualTo(1);
            assertThat(d.driver.producedTopicNames()).doesNotContain(BY_SERVER);

            // the same flow seen by an edge agent goes to wls3's task and counts
            d.send(flow().agent("edge-b").from("10.1.0.11", 40000).to(WLS3, 7001).at(T0).bytes(700, 300));

            assertThat(d.cumulative(PAIR).crossBytes()).isEqualTo(1000);
            assertThat(d.driver.producedTopicNames()).contains(BY_SERVER);
        }
    }
}
