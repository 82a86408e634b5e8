package io.siteflow.agent.flow;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The initiator of a conversation joined from its two directions: SYN flags first, then the port rule. */
class ServicePortsTest {
    private static final int SYN = 0x02;
    private static final int ACK = 0x10;
    private static final int FIN = 0x01;

    @Test
    void theEndWhoseDirectionHasSynWithoutAckInitiatesOverThePortRule() {
        // 6000 and 5000 are no service ports: by ports alone 6000's end (a) would be the client
        assertThat(ServicePorts.initiatorByPorts(6000, 5000)).isEqualTo(1);
        assertThat(ServicePorts.initiator(true, SYN | ACK | FIN, SYN | ACK, 6000, 5000)).isEqualTo(1);
        assertThat(ServicePorts.initiator(true, SYN | ACK, SYN | ACK | FIN, 6000, 5000)).isEqualTo(1);
        assertThat(ServicePorts.initiator(true, SYN | ACK, SYN, 6000, 5000)).isEqualTo(-1);
        assertThat(ServicePorts.initiator(true, SYN, SYN | ACK, 5000, 6000)).isEqualTo(1);
    }

    @Test
    void flagsCountForTcpOnlyThenThePortsDecideThenNothing() {
        assertThat(ServicePorts.initiator(false, SYN, 0, 1521, 40112)).isEqualTo(-1);
        assertThat(ServicePorts.initiator(true, SYN, SYN, 40112, 1521)).isEqualTo(1);
        assertThat(ServicePorts.initiator(true, 0, 0, 0, 0)).isZero();
        assertThat(ServicePorts.initiator(false, 0, 0, 7001, 7001)).isZero();
    }
}
