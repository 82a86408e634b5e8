package io.siteflow.agent.decode;

import static io.siteflow.agent.decode.Fx.cat;
import static io.siteflow.agent.decode.Fx.ethernet;
import static io.siteflow.agent.decode.Fx.ipv4;
import static io.siteflow.agent.decode.Fx.ipv6;
import static io.siteflow.agent.decode.Fx.payload;
import static io.siteflow.agent.decode.Fx.tcp;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Random, truncated and mutated bytes for every supported link type never make the decoder throw, and
 * whatever it returns stays inside the captured bytes.
 */
class DecoderFuzzTest {
    private static final int[] LINK_TYPES = IntStream.rangeClosed(0, 300).filter(PacketDecoder::supports).toArray();
    private static final List<byte[]> SEEDS = List.of(
            ethernet(0x8100, cat(Fx.of().u16(5).u16(0x8847).u32(0x00001140).build(), ipv4(6, tcp(payload(20))))),
            ethernet(0x86DD, ipv6(0, cat(Fx.extension(44, 0), Fx.of().u8(6, 0).u16(1).u32(3).build(),
                    tcp(payload(9))))),
            cat(Fx.of().u8(0, 0).u16le(12).u32le(0x02).u8(0x30).zeros(3).build(),
                    Fx.of().u8(0x88, 0x03).zeros(28).u16(0).build(),
                    Fx.of().u8(0xAA, 0xAA, 3, 0, 0, 0).u16(0x0800).build(), ipv4(17, Fx.udp(1, 2, payload(5)))),
            ipv4(6, new byte[] {(byte) 0x83, 7, 4, 1, 2, 3, 4, 0}, 0, -1, tcp(payload(3))));

    private final PacketDecoder decoder = new PacketDecoder();
    private final Packet packet = new Packet();

    @Test
    void supportsTheListedLinkTypes() {
        assertThat(LINK_TYPES).containsExactly(0, 1, 9, 10, 12, 14, 50, 101, 104, 105, 107, 108, 113, 127, 149, 192,
                226, 228, 229, 239, 242, 258, 276);
    }

    @Test
    void neverThrowsOnRandomBytes() {
        Random random = new Random(20261129L);
        for (int linkType : LINK_TYPES) {
            for (int i = 0; i < 3000; i++) {
                byte[] data = new byte[random.nextInt(200)];
                random.nextBytes(data);
                if (data.length > 0 && random.nextBoolean()) {
                    data[0] = (byte) (random.nextBoolean() ? 0x45 : 0x60);
                }
                check(linkType, data, 0, data.length, random.nextInt(70000));
            }
        }
    }

    @Test
    void neverThrowsOnEveryTruncationOfValidFrames() {
        for (int linkType : LINK_TYPES) {
            for (byte[] seed : SEEDS) {
                for (int capLen = 0; capLen <= seed.length; capLen++) {
                    check(linkType, seed, 0, capLen, seed.length);
                    check(linkType, seed, seed.length - capLen, capLen, seed.length);
                }
            }
        }
    }

    @Test
    void neverThrowsOnMutatedValidFrames() {
        Random random = new Random(7L);
        for (int linkType : LINK_TYPES) {
            for (byte[] seed : SEEDS) {
                for (int i = 0; i < 2000; i++) {
                    byte[] data = seed.clone();
                    for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                        data[random.nextInt(data.length)] = (byte) random.nextInt(256);
                    }
                    check(linkType, data, 0, random.nextInt(data.length + 1), data.length + random.nextInt(3) - 1);
                }
            }
        }
    }

    private void check(int linkType, byte[] data, int offset, int capLen, int wireLen) {
        DecodeStatus status = decoder.decode(linkType, data, offset, capLen, wireLen, packet);
        assertThat(status).isNotNull();
        if (status == DecodeStatus.IP) {
            assertThat(packet.ipVersion).isIn(4, 6);
            assertThat(packet.ipBytes).isNotNegative();
            if (packet.hasPorts) {
                assertThat(packet.payloadCaptured).isBetween(0, Math.max(packet.payloadLength, 0));
                if (packet.payloadCaptured > 0) {
                    assertThat(packet.payloadOffset + packet.payloadCaptured).isLessThanOrEqualTo(offset + capLen);
                }
            }
        } else if (status == DecodeStatus.MALFORMED) {
            assertThat(packet.malformed).isNotEqualTo(MalformedReason.NONE);
            assertThat(packet.malformedOffset).as("link %d capLen %d wire %d reason %s data %s",
                    linkType, capLen, wireLen,
                    packet.malformed, java.util.HexFormat.of().formatHex(data)).isBetween(0, Math.max(capLen, 0));
        }
    }
}
