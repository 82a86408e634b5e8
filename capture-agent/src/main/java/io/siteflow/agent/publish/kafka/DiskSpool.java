package io.siteflow.agent.publish.kafka;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A bounded, append-only, on-disk FIFO of byte records: segment files in one directory (format in
 * {@link SpoolSegment}), a read position kept in {@code spool.pos} ({@link SpoolPosition}), fully read segments
 * deleted. Survives a restart: records appended and not yet committed are read again, in order.
 *
 * <p>Consuming needs no free disk space: {@link #commit} moves the position in memory, deletes the segments read
 * whole, then overwrites the fixed-size position file in place; when even that fails the position stays in memory
 * (reported once to {@code warnings}), so the spool keeps draining and only a restart would send those records
 * again.
 *
 * <p>Damage never throws: at open, a segment is cut off where its framing breaks (a torn tail after a
 * crash, an impossible length) and a file with a wrong header is moved aside as {@code .corrupt}; at
 * read, a record whose CRC does not match is skipped. Each is reported once to the {@code warnings}
 * consumer as {@code "<file>: offset <n>: <problem>"}.
 *
 * <p>Bound: {@link #append} refuses a record (returns false) when the segment files would exceed
 * {@code maxBytes}; space comes back when whole segments are consumed. Thread-safe (all methods
 * synchronized). Appends reach the OS at once and the disk at {@link #sync()} or {@link #close()}.
 */
public final class DiskSpool implements AutoCloseable {
    private final Path dir;
    private final long maxBytes;
    private final long segmentBytes;
    private final Consumer<String> warnings;
    private final TreeMap<Long, Long> segments = new TreeMap<>(); // seq -> valid length in bytes
    private final Set<String> warned = new HashSet<>();
    private SpoolPosition position;
    private FileChannel writer;
    private long nextSeq;
    private long readSeq;
    private long readOffset = SpoolSegment.HEADER_BYTES;
    private long bytes;
    private long records;

    private DiskSpool(Path dir, long maxBytes, long segmentBytes, Consumer<String> warnings) {
        this.dir = dir;
        this.maxBytes = maxBytes;
        this.segmentBytes = segmentBytes;
        this.warnings = warnings;
    }

    /**
     * Opens (or creates) the spool in {@code dir}, recovering what an earlier run left.
     *
     * @param maxBytes     bound on the total size of the segment files
     * @param segmentBytes size at which a new segment file is started
     * @param warnings     receives one line per damaged spot found
     * @throws IOException when the directory cannot be created, listed or written
     */
    public static DiskSpool open(Path dir, long maxBytes, long segmentBytes, Consumer<String> warnings)
            throws IOException {
        if (segmentBytes <= SpoolSegment.HEADER_BYTES || maxBytes < segmentBytes) {
            throw new IllegalArgumentException("spool: need 8 < segment size (" + segmentBytes
                    + ") <= size limit (" + maxBytes + ")");
        }
        DiskSpool s = new DiskSpool(dir, maxBytes, segmentBytes, warnings);
        Files.createDirectories(dir);
        s.position = SpoolPosition.of(dir);
        s.recover();
        return s;
    }

    /** Appends one record; false (nothing written) when the size limit would be passed. */
    public synchronized boolean append(byte[] payload) throws IOException {
        if (payload.length > SpoolSegment.MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("spool: record of " + payload.length + " bytes is too large");
        }
        long frame = SpoolSegment.RECORD_HEADER_BYTES + payload.length;
        boolean roll = writer == null || segments.lastEntry().getValue() + frame > segmentBytes
                && segments.lastEntry().getValue() > SpoolSegment.HEADER_BYTES;
        if (bytes + frame + (roll ? SpoolSegment.HEADER_BYTES : 0) > maxBytes) {
            return false;
        }
        if (roll) {
            startSegment();
        }
        Map.Entry<Long, Long> last = segments.lastEntry();
        writeFully(writer, SpoolSegment.frame(payload), last.getValue());
        segments.put(last.getKey(), last.getValue() + frame);
        bytes += frame;
        records++;
        return true;
    }

    /** Up to {@code max} records from the read position, without consuming them; damaged ones are skipped. */
    public synchronized Batch peek(int max) throws IOException {
        List<byte[]> out = new ArrayList<>();
        int consumed = 0;
        long seq = readSeq;
        long offset = readOffset;
        for (Map.Entry<Long, Long> seg : segments.tailMap(readSeq, true).entrySet()) {
            if (seg.getKey() != seq) {
                seq = seg.getKey();
                offset = SpoolSegment.HEADER_BYTES;
            }
            Path file = SpoolSegment.path(dir, seq);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                while (out.size() < max) {
                    SpoolSegment.Entry e = SpoolSegment.read(ch, offset, seg.getValue(), true);
                    if (e == null) {
                        break;
                    }
                    if (e.problem() != null) {
                        warnOnce(file, offset, e.problem());
                    }
                    if (e.next() < 0) {
                        offset = seg.getValue();
                        break;
                    }
                    offset = e.next();
                    consumed++;
                    if (e.data() != null) {
                        out.add(e.data());
                    }
                }
            }
            if (out.size() >= max) {
                break;
            }
        }
        return new Batch(List.copyOf(out), consumed, seq, offset);
    }

    /**
     * Consumes the records of a batch from {@link #peek}; fully read segments are deleted, then the position is
     * written. A position that cannot be written is reported to {@code warnings}, not thrown.
     *
     * @throws IOException when a fully read segment cannot be deleted
     */
    public synchronized void commit(Batch b) throws IOException {
        readSeq = b.endSeq();
        readOffset = b.endOffset();
        records = Math.max(0, records - b.consumed());
        for (Long seq : new ArrayList<>(segments.headMap(readSeq, false).keySet())) {
            deleteSegment(seq);
        }
        Map.Entry<Long, Long> last = segments.lastEntry();
        if (last != null && last.getKey() == readSeq && last.getValue() <= readOffset) {
            closeWriter();
            deleteSegment(readSeq);
            readSeq = nextSeq;
            readOffset = SpoolSegment.HEADER_BYTES;
            records = 0;
        }
        writePosition();
    }

    /** Records appended and not yet committed (damaged ones found later are included until skipped). */
    public synchronized long records() {
        return records;
    }

    /** Total size of the segment files in bytes. */
    public synchronized long bytes() {
        return bytes;
    }

    /** True when no record is waiting. */
    public synchronized boolean isEmpty() {
        return records == 0;
    }

    /** The spool directory. */
    public Path dir() {
        return dir;
    }

    /** Forces appended records to the disk. */
    public synchronized void sync() throws IOException {
        if (writer != null) {
            writer.force(false);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        sync();
        closeWriter();
        position.close();
    }

    /** Records read by {@link #peek}, how many records they consumed (skipped ones included), and where they end. */
    public record Batch(List<byte[]> records, int consumed, long endSeq, long endOffset) {
        public boolean isEmpty() {
            return consumed == 0;
        }
    }

    private void recover() throws IOException {
        SpoolRecovery.State st = SpoolRecovery.recover(dir, this::warnOnce);
        segments.putAll(st.segments());
        bytes = st.bytes();
        readSeq = st.readSeq();
        readOffset = st.readOffset();
        nextSeq = st.nextSeq();
        records = st.records();
        if (!segments.isEmpty()) {
            writer = FileChannel.open(SpoolSegment.path(dir, segments.lastKey()), StandardOpenOption.WRITE);
        }
        writePosition(); // takes its block now, while the spool is empty or as it was left
    }

    private void writePosition() {
        try {
            position.write(readSeq, readOffset);
        } catch (IOException e) {
            warnOnce(position.file(), 0, "cannot write the read position (" + e
                    + "); it is kept in memory, so records replayed since may be sent again after a restart");
        }
    }

    private void startSegment() throws IOException {
        closeWriter();
        long seq = nextSeq++;
        Path f = SpoolSegment.path(dir, seq);
        FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            writeFully(ch, SpoolSegment.header(), 0);
        } catch (IOException e) { // a full disk: no half-made segment is left, the next append starts one again
            ch.close();
            Files.deleteIfExists(f);
            throw e;
        }
        writer = ch;
        segments.put(seq, (long) SpoolSegment.HEADER_BYTES);
        bytes += SpoolSegment.HEADER_BYTES;
    }

    private void deleteSegment(long seq) throws IOException {
        Long len = segments.remove(seq);
        if (len != null) {
            bytes -= len;
            Files.deleteIfExists(SpoolSegment.path(dir, seq));
        }
    }

    private void closeWriter() throws IOException {
        if (writer != null) {
            writer.close();
            writer = null;
        }
    }

    private void warnOnce(Path file, long offset, String problem) {
        String msg = file + ": offset " + offset + ": " + problem;
        if (warned.add(msg)) {
            warnings.accept(msg);
        }
    }

    private static void writeFully(FileChannel ch, java.nio.ByteBuffer b, long position) throws IOException {
        long p = position;
        while (b.hasRemaining()) {
            p += ch.write(b, p);
        }
    }
}
