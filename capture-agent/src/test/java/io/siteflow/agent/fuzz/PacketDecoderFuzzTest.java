package io.siteflow.agent.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.MalformedReason;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Fuzz harness for the packet decoder ({@link PacketDecoder}) over every link type it supports. Input layout:
 * byte 0 picks the link type ({@link #LINK_TYPES}, modulo their number), byte 1 how much longer the packet was
 * on the wire, the rest is the captured frame. Whatever the bytes, the decoder answers a status and never
 * throws; reads stay inside the captured bytes (the same frame inside a larger buffer, with other bytes after
 * it, decodes to the same facts); an IP packet's captured payload lies inside the frame and a malformed one names a
 * reason and an offset inside it. Seeds: {@code src/test/resources/io/siteflow/agent/fuzz/
 * PacketDecoderFuzzTestInputs/}; docs/FUZZING.md.
 */
class PacketDecoderFuzzTest {
    /** Every LINKTYPE_ number the decoder supports, ascending. */
    static final int[] LINK_TYPES = IntStream.range(0, 0x10000).filter(PacketDecoder::supports).toArray();
    private static final int PAD = 13;

    private final PacketDecoder decoder = new PacketDecoder();

    @FuzzTest
    void decodesAnyFrameOfEveryLinkType(byte[] input) {
        if (input.length < 2) {
            return;
        }
        int linkType = LINK_TYPES[(input[0] & 0xFF) % LINK_TYPES.length];
        byte[] frame = Arrays.copyOfRange(input, 2, input.length);
        int wireLen = frame.length + (input[1] & 0xFF);
        Packet exact = new Packet();
        DecodeStatus status = decoder.decode(linkType, frame, 0, frame.length, wireLen, exact);
        checkFacts(status, exact, 0, frame.length);

        byte[] padded = new byte[PAD + frame.length + PAD];
        Arrays.fill(padded, (byte) 0x45);
        System.arraycopy(frame, 0, padded, PAD, frame.length);
        Packet inside = new Packet();
        assertThat(decoder.decode(linkType, padded, PAD, frame.length, wireLen, inside)).isEqualTo(status);
        assertThat(facts(inside, PAD)).isEqualTo(facts(exact, 0));
    }

    private static void checkFacts(DecodeStatus status, Packet p, int offset, int capLen) {
        assertThat(status).isNotNull();
        if (status == DecodeStatus.MALFORMED) {
            assertThat(p.malformed).isNotEqualTo(MalformedReason.NONE);
            assertThat(p.malformedOffset).isBetween(0, capLen);
        } else if (status == DecodeStatus.IP) {
            assertThat(p.ipVersion).isIn(4, 6);
            assertThat(p.ipBytes).isNotNegative();
            if (p.hasPorts) {
                assertThat(p.payloadCaptured).isBetween(0, Math.max(p.payloadLength, 0));
                assertThat(p.srcPort).isBetween(0, 65535);
                assertThat(p.dstPort).isBetween(0, 65535);
            }
            if (p.payloadCaptured > 0) {
                assertThat(p.payloadOffset).isBetween(offset, offset + capLen - p.payloadCaptured);
            }
        }
    }

    /** Every fact as text, the payload offset taken relative to the frame. */
    private static String facts(Packet p, int offset) {
        return p.ipVersion + " " + p.srcHi + " " + p.srcLo + " " + p.dstHi + " " + p.dstLo + " " + p.ipBytes + " "
                + p.protocol + " " + p.fragment + " " + p.fragmentOffset + " " + p.fragmentId + " " + p.hasPorts
                + " " + p.srcPort + " " + p.dstPort + " " + p.tcpFlags + " " + p.tcpSeq + " " + p.tcpAck + " "
                + p.payloadLength + " " + (p.payloadCaptured > 0 ? p.payloadOffset - offset : -1) + " " + p.payloadCaptured + " " + p.malformed
                + " " + p.malformedOffset;
    }
}
