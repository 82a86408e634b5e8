package io.siteflow.agent.publish.kafka;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The spool's read position in {@code spool.pos}: {@code "<segment> <offset>\n"}, both numbers 20 digits wide, so
 * the file is always {@value #BYTES} bytes and every write overwrites the same bytes in place. A full disk therefore
 * never stops the position from moving: no new block, no temporary file. The file is created when the spool opens;
 * if that fails the position lives in memory and creating is tried again at the next write. A torn write (power
 * loss) reads as an unreadable position, and the spool is then read from its start: records may be sent twice,
 * none is lost. Not thread-safe: {@link DiskSpool} calls it under its lock.
 */
final class SpoolPosition implements AutoCloseable {
    static final String FILE = "spool.pos";
    static final int BYTES = 42;

    private final Path file;
    private FileChannel channel;

    private SpoolPosition(Path file) {
        this.file = file;
    }

    /** The position file of {@code dir}; removes the {@code spool.pos.tmp} an older release may have left. */
    static SpoolPosition of(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(FILE + ".tmp"));
        return new SpoolPosition(dir.resolve(FILE));
    }

    Path file() {
        return file;
    }

    /**
     * Writes the position in place ({@value #BYTES} bytes at offset 0).
     *
     * @throws IOException when the file cannot be opened or written; the next call tries again
     */
    void write(long seq, long offset) throws IOException {
        if (channel == null) {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        }
        ByteBuffer b = ByteBuffer.wrap(String.format("%020d %020d\n", seq, offset).getBytes(StandardCharsets.US_ASCII));
        long p = 0;
        while (b.hasRemaining()) {
            p += channel.write(b, p);
        }
        if (channel.size() > BYTES) {
            channel.truncate(BYTES);
        }
    }

    @Override
    public void close() throws IOException {
        if (channel != null) {
            channel.close();
            channel = null;
        }
    }
}
