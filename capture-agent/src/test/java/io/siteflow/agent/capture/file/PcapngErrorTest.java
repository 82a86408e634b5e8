package io.siteflow.agent.capture.file;

import static io.siteflow.agent.capture.file.CaptureFileErrorTest.assertRunFails;
import static io.siteflow.agent.capture.file.TestCaptures.data;
import static io.siteflow.agent.capture.file.TestCaptures.pcapng;
import static io.siteflow.agent.capture.file.TestCaptures.write;
import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.CaptureFileException.Kind;
import io.siteflow.agent.capture.file.RecordingHandler.Seen;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged pcapng files. Layout of the fixtures: section header block at 0 (28 bytes), interface
 * description block at 28 (20 bytes), first packet block at 48.
 */
class PcapngErrorTest {
    private static final Seen FIRST = new Seen(1_000L, 1, data(10, 1), 10);

    @TempDir
    Path dir;

    /** SHB, IDB (Ethernet) and one EPB of 44 bytes at 48 holding 10 bytes; big-endian. */
    private static byte[] onePacket() {
        return pcapng(BIG_ENDIAN).idb(1, 0).epb(0, 1, data(10, 1), 10).bytes();
    }

    private static byte[] patch(byte[] bytes, int at, int bigEndianValue) {
        byte[] copy = bytes.clone();
        ByteBuffer.wrap(copy).putInt(at, bigEndianValue);
        return copy;
    }

    @Test
    void rejectsAnOptionLongerThanItsBlock() throws Exception {
        ByteBuffer shb = ByteBuffer.allocate(36).order(LITTLE_ENDIAN);
        shb.putInt(0x0A0D0D0A).putInt(36).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1)
                .putShort((short) 1).putShort((short) 12336).putInt(0x30303030).putInt(36);
        Path file = write(dir.resolve("shb-option.pcapng"), shb.array());

        assertThat(assertRunFails(file, Kind.CORRUPT, 0, file + ": corrupt at byte 0: section header block option"
                + " at byte 24 has length 12336, but only 4 bytes are left in the block").seen).isEmpty();
    }

    @Test
    void rejectsBlockLengthsThatDisagreeOrMakeNoSense() throws Exception {
        Path trailer = write(dir.resolve("trailer.pcapng"), patch(onePacket(), 88, 40));
        Path notFour = write(dir.resolve("four.pcapng"), patch(onePacket(), 52, 42));
        Path tooShort = write(dir.resolve("short.pcapng"), patch(onePacket(), 52, 28));
        Path tooLong = write(dir.resolve("long.pcapng"), patch(onePacket(), 52, 0x7FFF_FFF0));

        assertRunFails(trailer, Kind.CORRUPT, 48, trailer + ": corrupt at byte 48: enhanced packet block length"
                + " at the end (40) differs from the length at the start (44)");
        assertRunFails(notFour, Kind.CORRUPT, 48, notFour
                + ": corrupt at byte 48: enhanced packet block length 42 is not a multiple of 4");
        assertRunFails(tooShort, Kind.CORRUPT, 48, tooShort
                + ": corrupt at byte 48: enhanced packet block length 28 is less than 32");
        assertRunFails(tooLong, Kind.CORRUPT, 48, tooLong
                + ": corrupt at byte 48: enhanced packet block length 2147483632 is more than the maximum of 16777216");
    }

    @Test
    void rejectsPacketsThatDoNotFitOrNameAMissingInterface() throws Exception {
        byte[] two = pcapng(BIG_ENDIAN).idb(1, 0).epb(0, 1, data(10, 1), 10).epb(0, 2, data(10, 2), 10).bytes();
        Path capLen = write(dir.resolve("caplen.pcapng"), patch(two, 92 + 20, 100));
        Path iface = write(dir.resolve("iface.pcapng"), patch(two, 92 + 8, 1));
        Path spb = write(dir.resolve("spb.pcapng"), pcapng(LITTLE_ENDIAN).spb(data(8, 0), 8).bytes());

        assertThat(assertRunFails(capLen, Kind.CORRUPT, 92, capLen
                + ": corrupt at byte 92: enhanced packet block of 44 bytes is too short for 100 captured bytes").seen)
                .containsExactly(FIRST);
        assertThat(assertRunFails(iface, Kind.CORRUPT, 92, iface
                + ": corrupt at byte 92: enhanced packet block refers to interface 1, but the section has 1 interface(s)").seen)
                .containsExactly(FIRST);
        assertRunFails(spb, Kind.CORRUPT, 28, spb
                + ": corrupt at byte 28: simple packet block refers to interface 0, but the section has 0 interface(s)");
    }

    @Test
    void rejectsAPacketBiggerThanTheMaximum() throws Exception {
        Path file = pcapng(LITTLE_ENDIAN).idb(1, 0).epb(0, 1, data(10, 1), 10).epb(0, 2, data(262_148, 2), 262_148)
                .writeTo(dir.resolve("big.pcapng"));

        assertThat(assertRunFails(file, Kind.CORRUPT, 92, file + ": corrupt at byte 92: enhanced packet block holds"
                + " a packet of 262148 captured bytes, bigger than the maximum of 262144").seen).containsExactly(FIRST);
    }

    @Test
    void reportsAFileCutShortInAPacketOrASkippedBlock() throws Exception {
        byte[] two = pcapng(BIG_ENDIAN).idb(1, 0).epb(0, 1, data(10, 1), 10).epb(0, 2, data(10, 2), 10).bytes();
        Path inPacket = write(dir.resolve("cut.pcapng"), Arrays.copyOf(two, 92 + 20));
        byte[] withStats = pcapng(BIG_ENDIAN).idb(1, 0).epb(0, 1, data(10, 1), 10).block(5, data(200, 0)).bytes();
        Path inSkipped = write(dir.resolve("cut-isb.pcapng"), Arrays.copyOf(withStats, 92 + 150));
        Path inHeader = write(dir.resolve("cut-header.pcapng"), Arrays.copyOf(two, 92 + 6));

        assertThat(assertRunFails(inPacket, Kind.TRUNCATED, 92, inPacket
                + ": cut short at byte 92: enhanced packet block needs 44 bytes, 20 left").seen).containsExactly(FIRST);
        assertThat(assertRunFails(inSkipped, Kind.TRUNCATED, 92, inSkipped
                + ": cut short at byte 92: block of type 0x00000005 needs 212 bytes, 150 left").seen).containsExactly(FIRST);
        assertThat(assertRunFails(inHeader, Kind.TRUNCATED, 92, inHeader
                + ": cut short at byte 92: block header needs 8 bytes, 6 left").seen).containsExactly(FIRST);
    }

    @Test
    void rejectsALaterSectionOfAnUnsupportedVersion() throws Exception {
        Path file = pcapng(LITTLE_ENDIAN).idb(1, 0).epb(0, 1, data(10, 1), 10).section(BIG_ENDIAN, 1, 1)
                .writeTo(dir.resolve("v11-later.pcapng"));

        assertThat(assertRunFails(file, Kind.UNSUPPORTED, 104,
                file + ": at byte 104: pcapng version 1.1 is not supported (only 1.0 and 1.2)").seen)
                .containsExactly(FIRST);
    }
}
