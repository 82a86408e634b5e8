package io.siteflow.agent.capture.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.Cidr;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.BpfProgram.BpfCompileMode;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * What the filter of {@link BpfFilters} keeps, run by libpcap's own BPF interpreter on Ethernet frames
 * built here (no interface, no root; skipped when libpcap cannot be loaded). Offline, a VLAN tag is
 * always in the packet data; live Linux capture usually carries the outer tag beside the data instead.
 */
class BpfFilterSemanticsTest {
    private static BpfProgram program;

    @BeforeAll
    static void compile() throws Exception {
        String filter = BpfFilters.forRemoteCidrs(List.of(Cidr.parse("10.1.0.0/16"), Cidr.parse("fd00:1::/64")));
        try {
            program = Pcaps.compileFilter(65535, DataLinkType.EN10MB, filter, BpfCompileMode.OPTIMIZE,
                    PcapHandle.PCAP_NETMASK_UNKNOWN);
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            Assumptions.abort("libpcap cannot be loaded: " + e.getMessage());
        }
    }

    @AfterAll
    static void free() {
        if (program != null) {
            program.free();
        }
    }

    @Test
    void keepsIpv4WithEitherEndInsideACidr() {
        assertThat(keeps(ethernet(0x0800, ipv4("10.2.0.20", "10.1.0.10")))).isTrue();
        assertThat(keeps(ethernet(0x0800, ipv4("10.1.0.10", "10.2.0.20")))).isTrue();
        assertThat(keeps(ethernet(0x0800, ipv4("10.1.0.10", "10.1.0.11")))).isTrue();
    }

    @Test
    void dropsIpv4WithBothEndsOutside() {
        assertThat(keeps(ethernet(0x0800, ipv4("10.2.0.20", "10.3.0.10")))).isFalse();
    }

    @Test
    void keepsIpv6InsideACidrAndDropsIpv6Outside() {
        assertThat(keeps(ethernet(0x86DD, ipv6("fd00:2::20", "fd00:1::10")))).isTrue();
        assertThat(keeps(ethernet(0x86DD, ipv6("fd00:2::20", "fd00:3::10")))).isFalse();
    }

    @Test
    void keepsOneVlanTagAndDropsTaggedTrafficOutside() {
        assertThat(keeps(vlan(100, 0x0800, ipv4("10.2.0.20", "10.1.0.10")))).isTrue();
        assertThat(keeps(vlan(100, 0x86DD, ipv6("fd00:1::10", "fd00:2::20")))).isTrue();
        assertThat(keeps(vlan(100, 0x0800, ipv4("10.2.0.20", "10.3.0.10")))).isFalse();
    }

    @Test
    void dropsArpEvenForAddressesInsideACidr() {
        assertThat(keeps(ethernet(0x0806, arp("10.1.0.10", "10.1.0.11")))).isFalse();
    }

    private static boolean keeps(byte[] frame) {
        return program.applyFilter(frame, frame.length, frame.length);
    }

    private static byte[] ethernet(int etherType, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(14 + payload.length);
        b.put(new byte[] {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2}).putShort((short) etherType).put(payload);
        return b.array();
    }

    private static byte[] vlan(int id, int etherType, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(18 + payload.length);
        b.put(new byte[] {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2}).putShort((short) 0x8100).putShort((short) id)
                .putShort((short) etherType).put(payload);
        return b.array();
    }

    private static byte[] ipv4(String src, String dst) {
        ByteBuffer b = ByteBuffer.allocate(28);
        b.put((byte) 0x45).put((byte) 0).putShort((short) 28).putInt(0).put((byte) 64).put((byte) 17).putShort((short) 0);
        b.put(address(src)).put(address(dst)).putShort((short) 40000).putShort((short) 1521).putShort((short) 8).putShort((short) 0);
        return b.array();
    }

    private static byte[] ipv6(String src, String dst) {
        ByteBuffer b = ByteBuffer.allocate(48);
        b.putInt(0x6000_0000).putShort((short) 8).put((byte) 17).put((byte) 64).put(address(src)).put(address(dst));
        b.putShort((short) 40000).putShort((short) 1521).putShort((short) 8).putShort((short) 0);
        return b.array();
    }

    private static byte[] arp(String sender, String target) {
        ByteBuffer b = ByteBuffer.allocate(28);
        b.putShort((short) 1).putShort((short) 0x0800).put((byte) 6).put((byte) 4).putShort((short) 1);
        b.put(new byte[] {2, 0, 0, 0, 0, 2}).put(address(sender)).put(new byte[6]).put(address(target));
        return b.array();
    }

    private static byte[] address(String text) {
        try {
            return java.net.InetAddress.getByName(text).getAddress();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
