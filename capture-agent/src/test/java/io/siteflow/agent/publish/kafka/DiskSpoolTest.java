package io.siteflow.agent.publish.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskSpoolTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private DiskSpool open(long maxBytes, long segmentBytes) throws IOException {
        return DiskSpool.open(dir, maxBytes, segmentBytes, warnings::add);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> texts(DiskSpool.Batch batch) {
        return batch.records().stream().map(r -> new String(r, StandardCharsets.UTF_8)).toList();
    }

    private List<String> segmentFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".spool")).sorted().toList();
        }
    }

    @Test
    void returnsRecordsInAppendOrderAcrossSegments() throws IOException {
        try (DiskSpool spool = open(10_000, 64)) {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                expected.add("record-" + i);
                assertThat(spool.append(b("record-" + i))).isTrue();
            }
            assertThat(segmentFiles()).hasSize(7); // 8-byte header + 3 frames of 16 bytes per 64-byte segment
            assertThat(spool.records()).isEqualTo(20);

            DiskSpool.Batch first = spool.peek(5);
            assertThat(texts(first)).isEqualTo(expected.subList(0, 5));
            spool.commit(first);
            DiskSpool.Batch rest = spool.peek(100);
            assertThat(texts(rest)).isEqualTo(expected.subList(5, 20));
            spool.commit(rest);

            assertThat(spool.isEmpty()).isTrue();
            assertThat(spool.bytes()).isZero();
            assertThat(segmentFiles()).isEmpty();
        }
    }

    @Test
    void peekWithoutCommitReadsTheSameRecordsAgain() throws IOException {
        try (DiskSpool spool = open(10_000, 1_000)) {
            spool.append(b("a"));
            spool.append(b("b"));
            assertThat(texts(spool.peek(10))).containsExactly("a", "b");
            assertThat(texts(spool.peek(10))).containsExactly("a", "b");
            assertThat(spool.records()).isEqualTo(2);
        }
    }

    @Test
    void refusesRecordsBeyondTheSizeLimitAndTakesThemAgainOnceConsumed() throws IOException {
        // header 8 + 5 frames of 8 + 10 bytes = 98 bytes; a sixth frame would make 116
        try (DiskSpool spool = open(100, 100)) {
            for (int i = 0; i < 5; i++) {
                assertThat(spool.append(b("0123456789"))).isTrue();
            }
            assertThat(spool.append(b("0123456789"))).isFalse();
            assertThat(spool.records()).isEqualTo(5);
            assertThat(spool.bytes()).isEqualTo(98);

            spool.commit(spool.peek(10));
            assertThat(spool.append(b("again"))).isTrue();
            assertThat(texts(spool.peek(10))).containsExactly("again");
        }
    }

    @Test
    void skipsARecordWithABadCrcAndNamesTheFileAndOffset() throws IOException {
        try (DiskSpool spool = open(10_000, 1_000)) {
            spool.append(b("aaaa"));
            spool.append(b("bbbb"));
            spool.append(b("cccc"));
        }
        Path segment = dir.resolve("00000000000000000001.spool");
        byte[] bytes = Files.readAllBytes(segment);
        bytes[8 + 12 + 8] = 'x'; // first payload byte of the second record (offset 20)
        Files.write(segment, bytes);

        try (DiskSpool spool = open(10_000, 1_000)) {
            DiskSpool.Batch batch = spool.peek(10);
            assertThat(texts(batch)).containsExactly("aaaa", "cccc");
            assertThat(batch.consumed()).isEqualTo(3);
            assertThat(warnings).containsExactly(segment + ": offset 20: CRC mismatch, record of 4 bytes skipped");
            spool.commit(batch);
            assertThat(spool.isEmpty()).isTrue();
        }
    }

    @Test
    void resumesAfterARestartWhereTheLastCommitLeftOff() throws IOException {
        try (DiskSpool spool = open(10_000, 40)) {
            for (int i = 0; i < 5; i++) {
                spool.append(b("r" + i));
            }
            spool.commit(spool.peek(2));
        }
        try (DiskSpool spool = open(10_000, 40)) {
            assertThat(spool.records()).isEqualTo(3);
            spool.append(b("r5"));
            assertThat(texts(spool.peek(10))).containsExactly("r2", "r3", "r4", "r5");
            assertThat(warnings).isEmpty();
        }
    }

    @Test
    void cutsOffATornTailLeftByACrash() throws IOException {
        try (DiskSpool spool = open(10_000, 1_000)) {
            spool.append(b("aaaa"));
            spool.append(b("bbbb"));
        }
        Path segment = dir.resolve("00000000000000000001.spool");
        Files.write(segment, new byte[] {0, 0, 0, 9, 1}, StandardOpenOption.APPEND);

        try (DiskSpool spool = open(10_000, 1_000)) {
            assertThat(warnings).containsExactly(segment + ": offset 32: truncated record header (5 bytes); cut off 5 bytes");
            assertThat(Files.size(segment)).isEqualTo(32);
            spool.append(b("cccc"));
            assertThat(texts(spool.peek(10))).containsExactly("aaaa", "bbbb", "cccc");
        }
    }

    @Test
    void skipsTheRestOfASegmentWithAnImpossibleLength() throws IOException {
        try (DiskSpool spool = open(10_000, 30)) {
            spool.append(b("aaaa"));
            spool.append(b("bbbb")); // 8 + 12 + 12 > 30: second segment
            spool.append(b("cccc"));
        }
        Path first = dir.resolve("00000000000000000001.spool");
        Files.write(first, new byte[] {(byte) 0xff, 0, 0, 0, 0, 0, 0, 0}, StandardOpenOption.APPEND);
        Path second = dir.resolve("00000000000000000002.spool");
        assertThat(Files.exists(second)).isTrue();

        try (DiskSpool spool = open(10_000, 30)) {
            assertThat(texts(spool.peek(10))).containsExactly("aaaa", "bbbb", "cccc");
            assertThat(warnings).containsExactly(first + ": offset 20: bad record length -16777216; cut off 8 bytes");
        }
    }

    @Test
    void readsFromTheStartWhenTheReadPositionIsUnreadable() throws IOException {
        try (DiskSpool spool = open(10_000, 1_000)) {
            spool.append(b("a"));
            spool.append(b("b"));
            spool.commit(spool.peek(1));
        }
        Path pos = dir.resolve("spool.pos");
        Files.writeString(pos, "garbage");
        try (DiskSpool spool = open(10_000, 1_000)) {
            assertThat(warnings).containsExactly(pos + ": offset 0: unreadable read position, reading the spool from its start");
            assertThat(texts(spool.peek(10))).containsExactly("a", "b");
        }
    }

    @Test
    void movesAsideAFileThatIsNotASpoolSegment() throws IOException {
        Path bogus = dir.resolve("00000000000000000001.spool");
        Files.write(bogus, b("hello, world"));
        try (DiskSpool spool = open(10_000, 1_000)) {
            assertThat(warnings).containsExactly(bogus + ": offset 0: not a spool segment (bad magic), moved aside to "
                    + "00000000000000000001.spool.corrupt");
            assertThat(spool.isEmpty()).isTrue();
            spool.append(b("x"));
            assertThat(texts(spool.peek(1))).containsExactly("x");
        }
    }

    @Test
    void writesTheReadPositionInPlaceInAFileOfFixedSize() throws IOException {
        Path pos = dir.resolve("spool.pos");
        Files.writeString(dir.resolve("spool.pos.tmp"), ""); // what an older release left on a full disk
        try (DiskSpool spool = open(10_000, 1_000)) {
            Object inode = Files.getAttribute(pos, "unix:ino");
            spool.append(b("a"));
            spool.append(b("b"));
            spool.commit(spool.peek(1));

            assertThat(Files.readString(pos)).isEqualTo("00000000000000000001 00000000000000000017\n");
            assertThat(Files.getAttribute(pos, "unix:ino")).isEqualTo(inode);
            assertThat(dir.resolve("spool.pos.tmp")).doesNotExist();
        }
        try (DiskSpool spool = open(10_000, 1_000)) {
            assertThat(texts(spool.peek(10))).containsExactly("b");
        }
    }

    @Test
    void keepsDrainingWhenTheReadPositionCannotBeWritten() throws IOException {
        Path pos = Files.createDirectory(dir.resolve("spool.pos")); // cannot be opened as a file
        try (DiskSpool spool = open(10_000, 64)) {
            for (int i = 0; i < 6; i++) {
                spool.append(b("record-" + i));
            }
            spool.commit(spool.peek(4));
            DiskSpool.Batch rest = spool.peek(10);
            spool.commit(rest);

            assertThat(texts(rest)).containsExactly("record-4", "record-5");
            assertThat(spool.isEmpty()).isTrue();
            assertThat(segmentFiles()).isEmpty();
            assertThat(warnings).containsExactly(
                    pos + ": offset 0: unreadable read position, reading the spool from its start",
                    pos + ": offset 0: cannot write the read position "
                    + "(java.nio.file.FileSystemException: " + pos + ": Is a directory); it is kept in memory, "
                    + "so records replayed since may be sent again after a restart");
        }
    }
}
