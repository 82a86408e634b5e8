package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Fx.ethernet;
import static io.siteflow.agent.decode.Fx.ipv4;
import static io.siteflow.agent.decode.Fx.payload;
import static io.siteflow.agent.decode.Fx.tcp;
import static io.siteflow.agent.decode.Fx.udp;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.IpAddresses;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Ethernet + IPv4 + transport: counting rules, fields and malformed headers. */
class PacketDecoderTest {
    private final PacketDecoder decoder = new PacketDecoder();
    private final Packet packet = new Packet();

    private DecodeStatus decode(int linkType, byte[] frame) {
        return decoder.decode(linkType, frame, 0, frame.length, frame.length, packet);
    }

    @Test
    void decodesATcpSegmentOverEthernet() {
        byte[] frame = ethernet(0x0800, ipv4(6, tcp(40000, 1521, 0x18, 5, payload(10))));

        assertThat(decode(1, frame)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.ipVersion).isEqualTo(4);
        assertThat(IpAddresses.format(packet.srcHi, packet.srcLo)).isEqualTo("10.1.0.10");
        assertThat(IpAddresses.format(packet.dstHi, packet.dstLo)).isEqualTo("10.2.0.20");
        assertThat(packet.ipBytes).isEqualTo(50);
        assertThat(packet.protocol).isEqualTo(6);
        assertThat(packet.hasPorts).isTrue();
        assertThat(packet.srcPort).isEqualTo(40000);
        assertThat(packet.dstPort).isEqualTo(1521);
        assertThat(packet.tcpFlags).isEqualTo(0x18);
        assertThat(packet.tcpSeq).isEqualTo(0x01020304L);
        assertThat(packet.tcpAck).isEqualTo(0xA0B0C0D0L);
        assertThat(packet.payloadOffset).isEqualTo(54);
        assertThat(packet.payloadLength).isEqualTo(10);
        assertThat(packet.payloadCaptured).isEqualTo(10);
        assertThat(packet.fragment).isFalse();
        assertThat(packet.malformed).isEqualTo(MalformedReason.NONE);
        assertThat(packet.malformedOffset).isEqualTo(-1);
    }

    @Test
    void readsThePacketAtAnOffsetInsideALargerBuffer() {
        byte[] frame = ethernet(0x0800, ipv4(17, udp(5353, 53, payload(4))));
        byte[] buffer = new byte[frame.length + 100];
        System.arraycopy(frame, 0, buffer, 37, frame.length);

        assertThat(decoder.decode(1, buffer, 37, frame.length, frame.length, packet)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.srcPort).isEqualTo(5353);
        assertThat(packet.payloadOffset).isEqualTo(37 + 14 + 20 + 8);
        assertThat(packet.payloadLength).isEqualTo(4);
    }

    @Test
    void countsPayloadFromIpLengthsNotFromTheSnapLength() {
        byte[] frame = ethernet(0x0800, ipv4(6, tcp(payload(1000))));

        assertThat(decoder.decode(1, frame, 0, 64, frame.length, packet)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.ipBytes).isEqualTo(1040);
        assertThat(packet.payloadLength).isEqualTo(1000);
        assertThat(packet.payloadCaptured).isEqualTo(10);
    }

    @Test
    void ignoresEthernetPaddingAfterTheIpDatagram() {
        byte[] frame = Fx.cat(ethernet(0x0800, ipv4(6, tcp(new byte[0]))), new byte[6]);

        assertThat(decode(1, frame)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.ipBytes).isEqualTo(40);
        assertThat(packet.payloadLength).isZero();
        assertThat(packet.payloadCaptured).isZero();
    }

    @Test
    void decodesUdpSctpAndIcmpPorts() {
        assertThat(decode(1, ethernet(0x0800, ipv4(17, udp(1024, 53, payload(3)))))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.srcPort).isEqualTo(1024);
        assertThat(packet.payloadLength).isEqualTo(3);

        byte[] sctp = Fx.of().u16(2905).u16(2906).u32(7).u32(0).build();
        assertThat(decode(1, ethernet(0x0800, ipv4(132, sctp)))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.hasPorts).isTrue();
        assertThat(packet.dstPort).isEqualTo(2906);

        byte[] echo = Fx.of().u8(8, 0).u16(0).u32(1).build();
        assertThat(decode(1, ethernet(0x0800, ipv4(1, echo)))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.protocol).isEqualTo(1);
        assertThat(packet.hasPorts).isFalse();
        assertThat(packet.srcPort).isZero();
        assertThat(packet.dstPort).isZero();
    }

    @Test
    void readsGreAndOtherProtocolsAsProtocolNumberOnlyWithoutFollowingTheTunnel() {
        byte[] inner = ipv4(6, tcp(payload(4)));
        byte[] gre = Fx.cat(Fx.of().u16(0).u16(0x0800).build(), inner);

        assertThat(decode(1, ethernet(0x0800, ipv4(47, gre)))).isEqualTo(DecodeStatus.IP);

        assertThat(packet.protocol).isEqualTo(47);
        assertThat(packet.hasPorts).isFalse();
        assertThat(packet.ipBytes).isEqualTo(20 + 4 + inner.length);
    }

    @Test
    void skipsIpv4Options() {
        byte[] options = {1, 1, 7, 7, 4, 0, 0, 0, 0, 0, 0, 0};
        byte[] frame = ethernet(0x0800, ipv4(6, options, 0, -1, tcp(payload(2))));

        assertThat(decode(1, frame)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.ipBytes).isEqualTo(32 + 22);
        assertThat(packet.dstPort).isEqualTo(1521);
        assertThat(packet.payloadOffset).isEqualTo(14 + 32 + 20);
    }

    @Test
    void takesTheFinalDestinationOfALooseSourceRouteLikeTshark() {
        byte[] lsrr = {(byte) 0x83, 11, 4, 10, 9, 9, 9, 10, 8, 8, 8, 0};
        assertThat(decode(1, ethernet(0x0800, ipv4(17, lsrr, 0, -1, udp(1, 2, new byte[0])))))
                .isEqualTo(DecodeStatus.IP);
        assertThat(IpAddresses.format(packet.dstHi, packet.dstLo)).isEqualTo("10.8.8.8");

        byte[] exhausted = {(byte) 0x83, 11, 12, 10, 9, 9, 9, 10, 8, 8, 8, 0};
        decode(1, ethernet(0x0800, ipv4(17, exhausted, 0, -1, udp(1, 2, new byte[0]))));
        assertThat(IpAddresses.format(packet.dstHi, packet.dstLo)).isEqualTo("10.2.0.20");
    }

    @Test
    void marksFirstAndLaterFragments() {
        assertThat(decode(1, ethernet(0x0800, ipv4(17, new byte[0], 0x2000, -1, udp(1, 2, payload(16))))))
                .isEqualTo(DecodeStatus.IP);
        assertThat(packet.fragment).isTrue();
        assertThat(packet.fragmentOffset).isZero();
        assertThat(packet.fragmentId).isEqualTo(0x1234);
        assertThat(packet.hasPorts).isTrue();

        assertThat(decode(1, ethernet(0x0800, ipv4(17, new byte[0], 0x0003, -1, payload(16)))))
                .isEqualTo(DecodeStatus.IP);
        assertThat(packet.fragment).isTrue();
        assertThat(packet.fragmentOffset).isEqualTo(24);
        assertThat(packet.hasPorts).isFalse();
        assertThat(packet.ipBytes).isEqualTo(36);
        assertThat(packet.malformed).isEqualTo(MalformedReason.NONE);
    }

    @Test
    void takesTheLengthOfATsoSuperPacketFromTheWireLength() {
        byte[] frame = ethernet(0x0800, ipv4(6, new byte[0], 0x4000, 0, tcp(payload(100))));

        assertThat(decoder.decode(1, frame, 0, 96, 64014, packet)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.ipBytes).isEqualTo(64000);
        assertThat(packet.payloadLength).isEqualTo(64000 - 40);
        assertThat(packet.payloadCaptured).isEqualTo(96 - 54);
    }

    @Test
    void rejectsAnIpv4HeaderLengthBelowTwentyBytes() {
        byte[] frame = ethernet(0x0800, ipv4(6, tcp(payload(4))));
        frame[14] = 0x44;

        assertThat(decode(1, frame)).isEqualTo(DecodeStatus.MALFORMED);

        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_INVALID);
        assertThat(packet.malformedOffset).isEqualTo(14);
        assertThat(packet.ipVersion).isZero();
    }

    @Test
    void rejectsATotalLengthBelowTheHeaderLength() {
        byte[] frame = ethernet(0x0800, ipv4(6, new byte[0], 0, 19, tcp(payload(4))));

        assertThat(decode(1, frame)).isEqualTo(DecodeStatus.MALFORMED);

        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_INVALID);
        assertThat(packet.malformedOffset).isEqualTo(16);
    }

    @Test
    void rejectsAnUnknownIpVersionButDecodesIpv6BehindTheIpv4Ethertype() {
        byte[] bogus = ethernet(0x0800, ipv4(6, tcp(payload(4))));
        bogus[14] = 0x55;
        assertThat(decode(1, bogus)).isEqualTo(DecodeStatus.MALFORMED);
        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_INVALID);
        assertThat(packet.malformedOffset).isEqualTo(14);

        assertThat(decode(1, ethernet(0x0800, Fx.ipv6(17, udp(1, 2, new byte[0]))))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.ipVersion).isEqualTo(6);
    }

    @Test
    void reportsAnIpv4HeaderCutShortByTheSnapLength() {
        byte[] frame = ethernet(0x0800, ipv4(6, tcp(payload(4))));

        assertThat(decoder.decode(1, frame, 0, 33, frame.length, packet)).isEqualTo(DecodeStatus.MALFORMED);

        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_TRUNCATED);
        assertThat(packet.malformedOffset).isEqualTo(14);
    }

    @Test
    void countsAPacketWhoseTcpHeaderIsCutShortWithoutPorts() {
        byte[] frame = ethernet(0x0800, ipv4(6, tcp(payload(4))));

        assertThat(decoder.decode(1, frame, 0, 14 + 20 + 12, frame.length, packet)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.ipBytes).isEqualTo(44);
        assertThat(packet.hasPorts).isFalse();
        assertThat(packet.srcPort).isZero();
        assertThat(packet.malformed).isEqualTo(MalformedReason.TRANSPORT_TRUNCATED);
        assertThat(packet.malformedOffset).isEqualTo(34);
    }

    @Test
    void keepsTcpPortsWhenOnlyTheOptionsAreCutShort() {
        byte[] frame = ethernet(0x0800, ipv4(6, tcp(40000, 1521, 0x10, 8, payload(4))));

        assertThat(decoder.decode(1, frame, 0, 14 + 20 + 24, frame.length, packet)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.hasPorts).isTrue();
        assertThat(packet.payloadLength).isEqualTo(4);
        assertThat(packet.payloadCaptured).isZero();
        assertThat(packet.malformed).isEqualTo(MalformedReason.NONE);
    }

    @Test
    void countsAPacketWithAnInvalidTcpDataOffsetWithoutPorts() {
        byte[] frame = ethernet(0x0800, ipv4(6, tcp(40000, 1521, 0x10, 5, payload(4))));
        frame[14 + 20 + 12] = 0x40;

        assertThat(decode(1, frame)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.hasPorts).isFalse();
        assertThat(packet.malformed).isEqualTo(MalformedReason.TRANSPORT_INVALID);
        assertThat(packet.malformedOffset).isEqualTo(46);
    }

    @Test
    void reportsAUdpHeaderLongerThanTheIpDatagram() {
        byte[] frame = Fx.cat(ethernet(0x0800, ipv4(17, new byte[0], 0, 24, new byte[0])), new byte[8]);

        assertThat(decode(1, frame)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.malformed).isEqualTo(MalformedReason.TRANSPORT_INVALID);
        assertThat(packet.malformedOffset).isEqualTo(34);
    }

    @Test
    void saysNotIpForArpAndUnsupportedForUnknownLinkTypes() {
        assertThat(decode(1, ethernet(0x0806, new byte[28]))).isEqualTo(DecodeStatus.NOT_IP);
        assertThat(decode(1, ethernet(0x88CC, new byte[28]))).isEqualTo(DecodeStatus.NOT_IP);
        assertThat(decode(147, new byte[40])).isEqualTo(DecodeStatus.UNSUPPORTED_LINK);
        assertThat(PacketDecoder.supports(147)).isFalse();
        assertThat(PacketDecoder.supports(1)).isTrue();
        assertThat(PacketDecoder.supports(0x30000001)).isTrue();
    }

    @Test
    void clearsThePreviousPacketsFacts() {
        decode(1, ethernet(0x0800, ipv4(6, tcp(payload(4)))));

        assertThat(decode(1, ethernet(0x0806, new byte[28]))).isEqualTo(DecodeStatus.NOT_IP);

        assertThat(packet.hasPorts).isFalse();
        assertThat(packet.ipBytes).isZero();
    }

    @Test
    void treatsImpossibleBoundsAsATruncatedLink() {
        assertThat(decoder.decode(1, null, 0, 10, 10, packet)).isEqualTo(DecodeStatus.MALFORMED);
        assertThat(decoder.decode(1, new byte[4], 9, 10, 10, packet)).isEqualTo(DecodeStatus.MALFORMED);
        assertThat(decoder.decode(1, new byte[4], 0, -1, 10, packet)).isEqualTo(DecodeStatus.MALFORMED);
        byte[] frame = ethernet(0x0800, ipv4(6, tcp(payload(4))));
        assertThat(decoder.decode(1, Arrays.copyOf(frame, 30), 0, frame.length, frame.length, packet))
                .isEqualTo(DecodeStatus.MALFORMED);
        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_TRUNCATED);
    }
}
