package io.siteflow.agent.publish.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecord;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class FlowKeysTest {
    private final Function<FlowRecord, String> key =
            FlowKeys.localServer(List.of(Cidr.parse("10.1.0.0/16"), Cidr.parse("2001:db8::/32")));

    @Test
    void keysByTheInitiatorWhenItIsTheLocalServer() {
        assertThat(key.apply(Flows.flow(0, "10.2.0.20", "10.1.0.10"))).isEqualTo("10.2.0.20");
    }

    @Test
    void keysByTheResponderWhenTheRemoteSiteInitiated() {
        assertThat(key.apply(Flows.flow(0, "10.1.0.10", "10.2.0.20"))).isEqualTo("10.2.0.20");
        assertThat(key.apply(Flows.flow(0, "2001:db8::1", "2001:db9::7"))).isEqualTo("2001:db9::7");
    }

    @Test
    void keysByTheInitiatorWhenBothOrNeitherEndIsRemote() {
        assertThat(key.apply(Flows.flow(0, "10.1.0.10", "10.1.0.11"))).isEqualTo("10.1.0.10");
        assertThat(key.apply(Flows.flow(0, "192.168.0.1", "192.168.0.2"))).isEqualTo("192.168.0.1");
    }

    @Test
    void keysAFileReadWithoutRemoteCidrsByTheAgentAndALiveCaptureByTheInitiator() {
        FlowRecord r = Flows.flow(0, "10.1.0.10", "10.2.0.20");
        assertThat(FlowKeys.forCapture(List.of(), true, "edge-b").apply(r)).isEqualTo("edge-b");
        assertThat(FlowKeys.forCapture(List.of(), false, "edge-b").apply(r)).isEqualTo("10.1.0.10");
        assertThat(FlowKeys.forCapture(List.of(Cidr.parse("10.1.0.0/16")), true, "edge-b").apply(r))
                .isEqualTo("10.2.0.20");
    }

    @Test
    void keysByTheInitiatorWithoutRemoteCidrs() {
        assertThat(FlowKeys.localServer(List.of()).apply(Flows.flow(0, "10.1.0.10", "10.2.0.20")))
                .isEqualTo("10.1.0.10");
    }
}
