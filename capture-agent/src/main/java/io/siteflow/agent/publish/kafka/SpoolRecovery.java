package io.siteflow.agent.publish.kafka;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What {@link DiskSpool} finds in its directory at open: the segments with their valid lengths
 * (torn tails cut off, files with a wrong header moved aside), the read position from
 * {@code spool.pos} ({@link SpoolPosition}), and the number of records after it.
 */
final class SpoolRecovery {

    /** Receives one damaged spot. */
    interface Warnings {
        void warn(Path file, long offset, String problem);
    }

    /**
     * The state of a spool directory.
     *
     * @param segments   segment number to valid length in bytes, ascending
     * @param bytes      total length of the segments
     * @param readSeq    segment of the next record to read
     * @param readOffset offset of the next record to read in {@code readSeq}
     * @param nextSeq    number of the next segment to create
     * @param records    records from the read position to the end
     */
    record State(TreeMap<Long, Long> segments, long bytes, long readSeq, long readOffset, long nextSeq,
            long records) {
    }

    private SpoolRecovery() {
    }

    static State recover(Path dir, Warnings warnings) throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> SpoolSegment.seqOf(p) >= 0).sorted().toList();
        }
        TreeMap<Long, Long> segments = new TreeMap<>();
        long bytes = 0;
        for (Path f : files) {
            long end = adopt(f, warnings);
            if (end >= 0) {
                segments.put(SpoolSegment.seqOf(f), end);
                bytes += end;
            }
        }
        long[] pos = readPosition(dir, warnings);
        long nextSeq = Math.max(segments.isEmpty() ? 1 : segments.lastKey() + 1, pos[0] + 1);
        long readSeq;
        long readOffset = SpoolSegment.HEADER_BYTES;
        if (segments.containsKey(pos[0])) {
            readSeq = pos[0];
            readOffset = Math.max(SpoolSegment.HEADER_BYTES, pos[1]);
        } else {
            readSeq = segments.isEmpty() ? nextSeq : segments.firstKey();
        }
        long records = count(dir, segments, readSeq, readOffset);
        return new State(segments, bytes, readSeq, readOffset, nextSeq, records);
    }

    /** The valid length of a segment, or -1 when it was moved aside. */
    private static long adopt(Path f, Warnings warnings) throws IOException {
        String bad;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            bad = SpoolSegment.checkHeader(ch);
            if (bad == null) {
                long end = validEnd(f, ch, warnings);
                if (end < ch.size()) {
                    ch.truncate(end);
                }
                return end;
            }
        }
        Path aside = f.resolveSibling(f.getFileName() + ".corrupt");
        warnings.warn(f, 0, bad + ", moved aside to " + aside.getFileName());
        Files.move(f, aside, StandardCopyOption.REPLACE_EXISTING);
        return -1;
    }

    /** The end of the last whole record; where the framing breaks the rest is reported and cut off. */
    private static long validEnd(Path f, FileChannel ch, Warnings warnings) throws IOException {
        long size = ch.size();
        long offset = SpoolSegment.HEADER_BYTES;
        while (true) {
            SpoolSegment.Entry e = SpoolSegment.read(ch, offset, size, false);
            if (e == null) {
                return offset;
            }
            if (e.next() < 0) {
                warnings.warn(f, offset, e.problem() + "; cut off " + (size - offset) + " bytes");
                return offset;
            }
            offset = e.next();
        }
    }

    private static long count(Path dir, TreeMap<Long, Long> segments, long readSeq, long readOffset)
            throws IOException {
        long n = 0;
        for (Map.Entry<Long, Long> seg : segments.tailMap(readSeq, true).entrySet()) {
            long offset = seg.getKey() == readSeq ? readOffset : SpoolSegment.HEADER_BYTES;
            try (FileChannel ch = FileChannel.open(SpoolSegment.path(dir, seg.getKey()), StandardOpenOption.READ)) {
                SpoolSegment.Entry e;
                while ((e = SpoolSegment.read(ch, offset, seg.getValue(), false)) != null && e.next() >= 0) {
                    offset = e.next();
                    n++;
                }
            }
        }
        return n;
    }

    private static long[] readPosition(Path dir, Warnings warnings) {
        Path p = dir.resolve(SpoolPosition.FILE);
        if (!Files.exists(p)) {
            return new long[] {0, 0};
        }
        try {
            String[] parts = Files.readString(p, StandardCharsets.US_ASCII).trim().split(" ");
            return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
        } catch (IOException | NumberFormatException | ArrayIndexOutOfBoundsException e) {
            warnings.warn(p, 0, "unreadable read position, reading the spool from its start");
            return new long[] {0, 0};
        }
    }
}
