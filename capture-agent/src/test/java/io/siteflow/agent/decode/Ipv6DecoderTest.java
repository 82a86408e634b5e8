package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Fx.cat;
import static io.siteflow.agent.decode.Fx.extension;
import static io.siteflow.agent.decode.Fx.ipv6;
import static io.siteflow.agent.decode.Fx.payload;
import static io.siteflow.agent.decode.Fx.tcp;
import static io.siteflow.agent.decode.Fx.udp;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.IpAddresses;
import org.junit.jupiter.api.Test;

/** IPv6 over raw IPv6 (LINKTYPE 229): extension header chains, fragments, jumbograms, lengths. */
class Ipv6DecoderTest {
    private static final int RAW6 = 229;
    private final PacketDecoder decoder = new PacketDecoder();
    private final Packet packet = new Packet();

    private DecodeStatus decode(byte[] packetBytes) {
        return decoder.decode(RAW6, packetBytes, 0, packetBytes.length, packetBytes.length, packet);
    }

    @Test
    void decodesTcpBehindTheFixedHeader() {
        assertThat(decode(ipv6(6, tcp(payload(7))))).isEqualTo(DecodeStatus.IP);

        assertThat(packet.ipVersion).isEqualTo(6);
        assertThat(IpAddresses.format(packet.srcHi, packet.srcLo)).isEqualTo("2001:db8::1");
        assertThat(IpAddresses.format(packet.dstHi, packet.dstLo)).isEqualTo("2001:db8::2");
        assertThat(packet.ipBytes).isEqualTo(40 + 27);
        assertThat(packet.dstPort).isEqualTo(1521);
        assertThat(packet.payloadOffset).isEqualTo(60);
        assertThat(packet.payloadLength).isEqualTo(7);
    }

    @Test
    void walksHopByHopRoutingDestinationAndAhHeaders() {
        byte[] ah = Fx.of().u8(17, 4).zeros(22).build();
        byte[] chain = cat(extension(43, 0), extension(60, 1), extension(51, 0), ah, udp(1000, 2000, payload(5)));

        assertThat(decode(ipv6(0, chain))).isEqualTo(DecodeStatus.IP);

        assertThat(packet.protocol).isEqualTo(17);
        assertThat(packet.srcPort).isEqualTo(1000);
        assertThat(packet.payloadOffset).isEqualTo(40 + 8 + 16 + 8 + 24 + 8);
        assertThat(packet.payloadLength).isEqualTo(5);
        assertThat(packet.ipBytes).isEqualTo(40 + chain.length);
    }

    @Test
    void stopsAtEspAndNoNextHeader() {
        assertThat(decode(ipv6(60, cat(extension(50, 0), payload(16))))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.protocol).isEqualTo(50);
        assertThat(packet.hasPorts).isFalse();

        assertThat(decode(ipv6(59, new byte[0]))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.protocol).isEqualTo(59);
        assertThat(packet.ipBytes).isEqualTo(40);
    }

    @Test
    void treatsMobilityAndHipAsTheLastHeader() {
        assertThat(decode(ipv6(135, Fx.of().u8(59, 0, 0, 0).zeros(4).build()))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.protocol).isEqualTo(135);
        assertThat(decode(ipv6(139, Fx.of().u8(59, 0).zeros(6).build()))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.protocol).isEqualTo(139);
    }

    @Test
    void readsPortsOfTheFirstFragmentOnly() {
        byte[] first = Fx.of().u8(17, 0).u16(0x0001).u32(0xCAFEL).build();
        assertThat(decode(ipv6(44, cat(first, udp(53, 5353, payload(100)))))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.fragment).isTrue();
        assertThat(packet.fragmentOffset).isZero();
        assertThat(packet.fragmentId).isEqualTo(0xCAFE);
        assertThat(packet.hasPorts).isTrue();
        assertThat(packet.payloadLength).isEqualTo(100);

        byte[] later = Fx.of().u8(17, 0).u16(1232).u32(0xCAFEL).build();
        assertThat(decode(ipv6(44, cat(later, payload(50))))).isEqualTo(DecodeStatus.IP);
        assertThat(packet.fragment).isTrue();
        assertThat(packet.fragmentOffset).isEqualTo(1232);
        assertThat(packet.protocol).isEqualTo(17);
        assertThat(packet.hasPorts).isFalse();
        assertThat(packet.ipBytes).isEqualTo(40 + 8 + 50);
    }

    @Test
    void doesNotCallAnAtomicFragmentAFragment() {
        byte[] atomic = Fx.of().u8(6, 0).u16(0).u32(9).build();

        assertThat(decode(ipv6(44, cat(atomic, tcp(payload(1)))))).isEqualTo(DecodeStatus.IP);

        assertThat(packet.fragment).isFalse();
        assertThat(packet.hasPorts).isTrue();
    }

    @Test
    void countsAJumbogramWithItsJumboPayloadLength() {
        byte[] hopByHop = Fx.of().u8(6, 0).u8(0xC2, 4).u32(70000).build();
        byte[] packetBytes = ipv6(0, 0, cat(hopByHop, tcp(payload(20))));

        assertThat(decoder.decode(RAW6, packetBytes, 0, packetBytes.length, 70040, packet)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.ipBytes).isEqualTo(70040);
        assertThat(packet.dstPort).isEqualTo(1521);
        assertThat(packet.payloadLength).isEqualTo(70000 - 8 - 20);
    }

    @Test
    void rejectsAZeroPayloadLengthWithHopByHopButNoJumboOption() {
        assertThat(decode(ipv6(0, 0, cat(extension(6, 0), tcp(payload(2)))))).isEqualTo(DecodeStatus.MALFORMED);

        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_INVALID);
        assertThat(packet.malformedOffset).isEqualTo(4);
    }

    @Test
    void takesTheLengthOfABigTcpSuperPacketFromTheWireLength() {
        byte[] packetBytes = ipv6(6, 0, tcp(payload(60)));

        assertThat(decoder.decode(RAW6, packetBytes, 0, packetBytes.length, 150000, packet)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.ipBytes).isEqualTo(150000);
        assertThat(packet.payloadLength).isEqualTo(150000 - 60);
        assertThat(packet.payloadCaptured).isEqualTo(60);
    }

    @Test
    void reportsAnExtensionHeaderCutShortByTheSnapLength() {
        byte[] packetBytes = ipv6(0, cat(extension(43, 0), extension(6, 2), tcp(payload(2))));

        assertThat(decoder.decode(RAW6, packetBytes, 0, 40 + 8 + 10, packetBytes.length, packet))
                .isEqualTo(DecodeStatus.MALFORMED);

        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_TRUNCATED);
        assertThat(packet.malformedOffset).isEqualTo(48);
        assertThat(packet.ipVersion).isZero();
    }

    @Test
    void rejectsAnExtensionHeaderRunningPastThePayloadLength() {
        byte[] packetBytes = ipv6(60, 8, cat(extension(6, 1), tcp(new byte[0])));

        assertThat(decode(packetBytes)).isEqualTo(DecodeStatus.MALFORMED);

        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_INVALID);
        assertThat(packet.malformedOffset).isEqualTo(40);
    }

    @Test
    void reportsAFixedHeaderCutShortAndAWrongVersion() {
        byte[] packetBytes = ipv6(6, tcp(payload(2)));
        assertThat(decoder.decode(RAW6, packetBytes, 0, 39, packetBytes.length, packet))
                .isEqualTo(DecodeStatus.MALFORMED);
        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_TRUNCATED);
        assertThat(packet.malformedOffset).isZero();

        byte[] v4 = Fx.ipv4(6, tcp(payload(2)));
        assertThat(decode(v4)).isEqualTo(DecodeStatus.MALFORMED);
        assertThat(packet.malformed).isEqualTo(MalformedReason.IP_INVALID);
    }

    @Test
    void countsAPacketWhoseUdpHeaderIsCutShortAfterTheChain() {
        byte[] packetBytes = ipv6(60, cat(extension(17, 0), udp(1, 2, payload(4))));

        assertThat(decoder.decode(RAW6, packetBytes, 0, 52, packetBytes.length, packet)).isEqualTo(DecodeStatus.IP);

        assertThat(packet.protocol).isEqualTo(17);
        assertThat(packet.hasPorts).isFalse();
        assertThat(packet.malformed).isEqualTo(MalformedReason.TRANSPORT_TRUNCATED);
        assertThat(packet.malformedOffset).isEqualTo(48);
    }
}
