package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Fx.cat;
import static io.siteflow.agent.decode.Fx.ethernet;
import static io.siteflow.agent.decode.Fx.ipv4;
import static io.siteflow.agent.decode.Fx.ipv6;
import static io.siteflow.agent.decode.Fx.payload;
import static io.siteflow.agent.decode.Fx.tcp;
import static io.siteflow.agent.decode.Fx.udp;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every link type and ethertype path reaches the same IPv4/IPv6 packet; cut-short link headers are reported. */
class LinkLayersTest {
    private static final byte[] V4 = ipv4(6, tcp(payload(3)));
    private static final byte[] V6 = ipv6(17, udp(7, 9, payload(3)));
    private static final byte[] SNAP_V4 = cat(Fx.of().u8(0xAA, 0xAA, 0x03, 0, 0, 0).u16(0x0800).build(), V4);

    private final PacketDecoder decoder = new PacketDecoder();
    private final Packet packet = new Packet();

    private DecodeStatus decode(int linkType, byte[] frame) {
        return decoder.decode(linkType, frame, 0, frame.length, frame.length, packet);
    }

    /** Asserts the frame decodes to the IPv4 fixture whose header starts at {@code ipAt}. */
    private void assertV4(int linkType, byte[] frame, int ipAt) {
        assertThat(decode(linkType, frame)).isEqualTo(DecodeStatus.IP);
        assertThat(packet.ipVersion).isEqualTo(4);
        assertThat(packet.ipBytes).isEqualTo(V4.length);
        assertThat(packet.dstPort).isEqualTo(1521);
        assertThat(packet.payloadOffset).isEqualTo(ipAt + 40);
    }

    private void assertV6(int linkType, byte[] frame, int ipAt) {
        assertThat(decode(linkType, frame)).isEqualTo(DecodeStatus.IP);
        assertThat(packet.ipVersion).isEqualTo(6);
        assertThat(packet.dstPort).isEqualTo(9);
        assertThat(packet.payloadOffset).isEqualTo(ipAt + 48);
    }

    private void assertCut(int linkType, byte[] frame, int capLen, MalformedReason reason, int at) {
        assertThat(decoder.decode(linkType, frame, 0, capLen, frame.length, packet)).isEqualTo(DecodeStatus.MALFORMED);
        assertThat(packet.malformed).isEqualTo(reason);
        assertThat(packet.malformedOffset).isEqualTo(at);
    }

    private static byte[] tag(int tpid, int vid) {
        return Fx.of().u16(tpid).u16(vid).build();
    }

    @Test
    void followsVlanTagsToAnyDepth() {
        byte[] frame = cat(Fx.of().bytes(Fx.MAC_B).bytes(Fx.MAC_A).build(), tag(0x88A8, 100), tag(0x8100, 200),
                tag(0x9100, 300), tag(0x8100, 400), Fx.of().u16(0x0800).build(), V4);
        assertV4(1, frame, 30);
        assertCut(1, frame, 20, MalformedReason.LINK_TRUNCATED, 18);
    }

    @Test
    void followsPbbVnTagETagFabricPathAndCiscoMetaData() {
        byte[] inner = ethernet(0x0800, V4);
        assertV4(1, ethernet(0x88E7, cat(Fx.of().u32(0x00012345).build(), inner)), 14 + 4 + 14);
        assertV4(1, ethernet(0x8926, cat(Fx.of().u32(0).u16(0x0800).build(), V4)), 20);
        assertV4(1, ethernet(0x893F, cat(Fx.of().zeros(6).u16(0x0800).build(), V4)), 22);
        assertV4(1, ethernet(0x8909, cat(Fx.of().u8(1, 1).u16(1).u16(7).u16(0x0800).build(), V4)), 22);
        assertV4(1, ethernet(0x8903, cat(Fx.of().u16(0).build(), inner, new byte[4])), 30);
        assertCut(1, ethernet(0x88E7, cat(new byte[4], inner)), 20, MalformedReason.LINK_TRUNCATED, 14);
    }

    @Test
    void followsMplsLabelStacksAndGuessesTheNetworkFromTheFirstNibble() {
        byte[] labels = Fx.of().u32(0x00010000L).u32(0x00020000L).u32(0x00030140L).build();
        assertV4(1, ethernet(0x8847, cat(labels, V4)), 26);
        assertV6(1, ethernet(0x8848, cat(labels, V6)), 26);
        byte[] controlWord = new byte[4];
        assertV4(1, ethernet(0x8847, cat(labels, controlWord, ethernet(0x0800, V4))), 26 + 4 + 14);
        assertThat(decode(1, ethernet(0x8847, cat(labels, Fx.of().u8(0x10).zeros(40).build()))))
                .isEqualTo(DecodeStatus.NOT_IP);
        assertCut(1, ethernet(0x8847, cat(labels, V4)), 20, MalformedReason.LINK_TRUNCATED, 18);
    }

    @Test
    void followsPppoeSessionsNshAndLlcSnap() {
        byte[] pppoe = Fx.of().u8(0x11, 0).u16(1).u16(V4.length + 2).u16(0x0021).build();
        assertV4(1, ethernet(0x8864, cat(pppoe, V4)), 22);
        byte[] pppoe6 = Fx.of().u8(0x11, 0).u16(1).u16(V6.length + 2).u16(0x0057).build();
        assertV6(1, ethernet(0x8864, cat(pppoe6, V6)), 22);
        byte[] lcp = Fx.of().u8(0x11, 0).u16(1).u16(6).u16(0xC021).build();
        assertThat(decode(1, ethernet(0x8864, cat(lcp, new byte[4])))).isEqualTo(DecodeStatus.NOT_IP);
        byte[] nsh = Fx.of().u8(0x0F, 0xC6, 0x01, 0x01).u32(0x000100FFL).zeros(16).build();
        assertV4(1, ethernet(0x894F, cat(nsh, V4)), 38);
        assertV4(1, ethernet(SNAP_V4.length, SNAP_V4), 22);
        byte[] stp = Fx.of().u8(0x42, 0x42, 0x03).zeros(35).build();
        assertThat(decode(1, ethernet(stp.length, stp))).isEqualTo(DecodeStatus.NOT_IP);
    }

    @Test
    void decodesLinuxCookedCaptures() {
        byte[] sll = Fx.of().u16(0).u16(1).u16(6).bytes(Fx.MAC_A).u16(0).u16(0x0800).build();
        assertV4(113, cat(sll, V4), 16);
        byte[] sllLlc = Fx.of().u16(0).u16(1).u16(6).bytes(Fx.MAC_A).u16(0).u16(0x0004).build();
        assertV4(113, cat(sllLlc, SNAP_V4), 24);
        byte[] netlink = Fx.of().u16(0).u16(824).u16(0).zeros(8).u16(0x0800).build();
        assertThat(decode(113, cat(netlink, V4))).isEqualTo(DecodeStatus.NOT_IP);
        byte[] sll2 = Fx.of().u16(0x86DD).u16(0).u32(3).u16(1).u8(0, 6).bytes(Fx.MAC_A).u16(0).build();
        assertV6(276, cat(sll2, V6), 20);
        assertCut(113, cat(sll, V4), 15, MalformedReason.LINK_TRUNCATED, 0);
    }

    @Test
    void decodesRawIpLinkTypes() {
        for (int linkType : new int[] {12, 14, 101, 228}) {
            assertV4(linkType, V4, 0);
        }
        assertV6(101, V6, 0);
        assertV6(229, V6, 0);
        assertThat(decode(228, V6)).isEqualTo(DecodeStatus.IP);
    }

    @Test
    void decodesBsdNullInEitherByteOrderAndOpenBsdLoop() {
        assertV4(0, cat(Fx.of().u32le(2).build(), V4), 4);
        assertV4(0, cat(Fx.of().u32(2).build(), V4), 4);
        for (int family : new int[] {24, 28, 30}) {
            assertV6(0, cat(Fx.of().u32le(family).build(), V6), 4);
            assertV6(108, cat(Fx.of().u32(family).build(), V6), 4);
        }
        assertV4(108, cat(Fx.of().u32(2).build(), V4), 4);
        assertThat(decode(0, cat(Fx.of().u32le(7).build(), V4))).isEqualTo(DecodeStatus.NOT_IP);
        assertCut(0, cat(Fx.of().u32le(2).build(), V4), 3, MalformedReason.LINK_TRUNCATED, 0);
    }

    @Test
    void decodesPppHdlcAndCiscoHdlc() {
        assertV4(9, cat(Fx.of().u8(0xFF, 0x03).u16(0x0021).build(), V4), 4);
        assertV4(9, cat(Fx.of().u16(0x0021).build(), V4), 2);
        assertV4(9, cat(Fx.of().u8(0x21).build(), V4), 1);
        assertV6(50, cat(Fx.of().u8(0xFF, 0x03).u16(0x0057).build(), V6), 4);
        assertV4(104, cat(Fx.of().u8(0x0F, 0x00).u16(0x0800).build(), V4), 4);
        assertV6(104, cat(Fx.of().u8(0x8F, 0x00).u16(0x86DD).build(), V6), 4);
        assertThat(decode(9, cat(Fx.of().u16(0xC021).build(), new byte[8]))).isEqualTo(DecodeStatus.NOT_IP);
    }

    @Test
    void decodesNflogPayloadTlvs() {
        byte[] prefix = Fx.of().u16le(8).u16le(10).u8('f', 'w', 0, 0).build();
        byte[] payloadTlv = Fx.of().u16le(4 + V4.length).u16le(9).build();
        assertV4(239, cat(Fx.of().u8(2, 0).u16(0).build(), prefix, payloadTlv, V4), 16);
        byte[] payloadTlv6 = Fx.of().u16le(4 + V6.length).u16le(9).build();
        assertV6(239, cat(Fx.of().u8(10, 0).u16(0).build(), payloadTlv6, V6), 8);
        assertThat(decode(239, cat(Fx.of().u8(2, 0).u16(0).build(), prefix))).isEqualTo(DecodeStatus.NOT_IP);
        assertCut(239, cat(Fx.of().u8(2, 0).u16(0).build(), Fx.of().u16le(2).u16le(9).build()), 8,
                MalformedReason.LINK_INVALID, 4);
    }

    @Test
    void decodesPktapAroundEthernetAndIpOverInfiniband() {
        byte[] pktap = Fx.of().u32le(20).u32le(1).u32le(1).zeros(8).build();
        assertV4(258, cat(pktap, ethernet(0x0800, V4)), 34);
        assertV4(149, cat(pktap, ethernet(0x0800, V4)), 34);
        assertCut(258, cat(Fx.of().u32le(9999).u32le(1).u32le(1).build(), V4), 40, MalformedReason.LINK_INVALID, 0);
        byte[] ipoib = Fx.of().zeros(40).u16(0x0800).u16(0).build();
        assertV4(242, cat(ipoib, V4), 44);
    }

    @Test
    void decodesOlderLinkTypes() {
        assertV4(10, cat(Fx.of().u8(0x50).bytes(Fx.MAC_B).bytes(Fx.MAC_A).build(), SNAP_V4), 21);
        assertV4(107, cat(Fx.of().u8(0x18, 0x61).u16(0x0800).build(), V4), 4);
        assertV4(107, cat(Fx.of().u8(0x18, 0x61, 0x03, 0xCC).build(), V4), 4);
        byte[] ipnet = Fx.of().u8(1, 26).u16(0).u32(V6.length).zeros(16).build();
        assertV6(226, cat(ipnet, V6), 24);
    }

    @Test
    void decodesIeee80211DataFrames() {
        byte[] data = Fx.of().u8(0x08, 0x01).zeros(22).build();
        assertV4(105, cat(data, SNAP_V4), 32);
        byte[] qosFourAddress = Fx.of().u8(0x88, 0x03).zeros(28).u16(0).build();
        assertV4(105, cat(qosFourAddress, SNAP_V4), 40);
        byte[] qosHtControl = Fx.of().u8(0x88, 0x81).zeros(22).u16(0).u32(0).build();
        assertV4(105, cat(qosHtControl, SNAP_V4), 38);
        byte[] protectedFrame = Fx.of().u8(0x08, 0x41).zeros(22).build();
        assertThat(decode(105, cat(protectedFrame, SNAP_V4))).isEqualTo(DecodeStatus.NOT_IP);
        byte[] nullFunction = Fx.of().u8(0x48, 0x01).zeros(22).build();
        assertThat(decode(105, nullFunction)).isEqualTo(DecodeStatus.NOT_IP);
        byte[] beacon = Fx.of().u8(0x80, 0x00).zeros(40).build();
        assertThat(decode(105, beacon)).isEqualTo(DecodeStatus.NOT_IP);
        assertCut(105, cat(data, SNAP_V4), 20, MalformedReason.LINK_TRUNCATED, 0);
    }

    @Test
    void decodesRadiotapRespectingTheFcsAndPaddingFlags() {
        byte[] radiotap = Fx.of().u8(0, 0).u16le(18).u32le(0x03).zeros(8).u8(0x10, 0).build();
        byte[] data = Fx.of().u8(0x08, 0x02).zeros(22).build();
        byte[] frame = cat(radiotap, data, SNAP_V4, new byte[] {1, 2, 3, 4});
        assertV4(127, frame, 18 + 32);

        byte[] padded = Fx.of().u8(0, 0).u16le(9).u32le(0x02).u8(0x20).build();
        byte[] qos = Fx.of().u8(0x88, 0x02).zeros(22).u16(0).build();
        assertV4(127, cat(padded, qos, new byte[2], SNAP_V4), 9 + 28 + 8);
        assertCut(127, frame, 7, MalformedReason.LINK_TRUNCATED, 0);
        assertCut(127, cat(Fx.of().u8(0, 0).u16le(4).u32le(0).build(), data), 40, MalformedReason.LINK_INVALID, 2);
    }

    @Test
    void decodesPpiAroundIeee80211() {
        byte[] common = Fx.of().u16le(2).u16le(20).zeros(8).u16le(1).zeros(10).build();
        byte[] ppi = cat(Fx.of().u8(0, 0).u16le(8 + common.length).u32le(105).build(), common);
        byte[] data = Fx.of().u8(0x08, 0x02).zeros(22).build();
        assertV4(192, cat(ppi, data, SNAP_V4, new byte[4]), ppi.length + 32);
        byte[] ppiEthernet = Fx.of().u8(0, 0).u16le(8).u32le(1).build();
        assertV4(192, cat(ppiEthernet, ethernet(0x0800, V4)), 22);
    }
}
