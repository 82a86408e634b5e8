package io.siteflow.agent.capture.file;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.CaptureFileException.Kind;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.decode.Bytes;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * The project's own capture-file reader: classic pcap (µs and ns, both byte orders), pcapng (several
 * sections and interfaces, per-interface link types and timestamp resolutions) and either of them
 * compressed with gzip. See {@code capture-agent/docs/capture-files.md}.
 *
 * <p>{@link #open} reads and checks the file header; {@link #run} delivers the packets from one large
 * reused buffer without copying or allocating per packet. Byte offsets in error messages are offsets
 * in the file, or in the decompressed stream for a gzip-compressed file.
 *
 * <p>Threading: {@link #run} on one thread, once; {@link #stop()}, {@link #stats()} and {@link #name()}
 * from any thread. {@link #close()} releases the file; call it after {@link #run} returns.
 */
public final class CaptureFileReader implements PacketSource {
    /** Size of the read buffer: records are handed out straight from it. */
    static final int DEFAULT_BUFFER_SIZE = 1024 * 1024;
    private static final int GZIP_BUFFER_SIZE = 256 * 1024;

    private final Path file;
    private final ReadableByteChannel channel;
    private final FormatReader reader;
    private boolean ran;

    private CaptureFileReader(Path file, ReadableByteChannel channel, FormatReader reader) {
        this.file = file;
        this.channel = channel;
        this.reader = reader;
    }

    /**
     * Opens {@code file} and checks its header.
     *
     * @throws CaptureFileException NOT_FOUND (missing or unreadable), NOT_A_CAPTURE (empty, too short,
     *                              unknown magic), UNSUPPORTED (version, reserved link-type bits), IO
     */
    public static CaptureFileReader open(Path file) throws CaptureFileException {
        return open(file, DEFAULT_BUFFER_SIZE);
    }

    /** As {@link #open(Path)} with a chosen initial buffer size (tests use tiny ones to cross buffer edges). */
    static CaptureFileReader open(Path file, int bufferSize) throws CaptureFileException {
        FileChannel fileChannel = openChannel(file);
        ReadableByteChannel channel = fileChannel;
        try {
            if (isGzip(fileChannel)) {
                channel = Channels.newChannel(new GZIPInputStream(Channels.newInputStream(fileChannel), GZIP_BUFFER_SIZE));
            }
        } catch (IOException e) {
            closeQuietly(channel);
            throw headerReadFailure(file, e);
        }
        return open(file, channel, bufferSize);
    }

    /** Reads an already opened (and decompressed) stream, named {@code file} in messages; closes it on failure. */
    static CaptureFileReader open(Path file, ReadableByteChannel channel, int bufferSize) throws CaptureFileException {
        try {
            InputWindow in = new InputWindow(channel, bufferSize);
            return new CaptureFileReader(file, channel, detect(file, in));
        } catch (IOException e) {
            closeQuietly(channel);
            throw headerReadFailure(file, e);
        } catch (CaptureFileException | RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /**
     * Delivers every packet of the file to {@code handler} on the calling thread, or until {@link #stop()}.
     * Exceptions thrown by the handler propagate unchanged.
     *
     * @throws CaptureFileException CORRUPT, TRUNCATED, UNSUPPORTED (a later pcapng section) or IO, after
     *                              delivering every packet before the problem
     * @throws IllegalStateException when called a second time
     */
    @Override
    public void run(PacketHandler handler) throws CaptureFileException {
        if (ran) {
            throw new IllegalStateException(file + ": run() may only be called once");
        }
        ran = true;
        reader.readAll(handler);
    }

    @Override
    public void stop() {
        reader.stop();
    }

    /** Packets delivered so far; nothing is dropped when reading a file. */
    @Override
    public CaptureStats stats() {
        return new CaptureStats(reader.delivered(), 0, 0);
    }

    /** The file name without its directory. */
    @Override
    public String name() {
        Path name = file.getFileName();
        return name == null ? file.toString() : name.toString();
    }

    @Override
    public void close() {
        closeQuietly(channel);
    }

    private static FormatReader detect(Path file, InputWindow in) throws IOException, CaptureFileException {
        try {
            in.request(PcapngReader.MIN_SECTION_HEADER);
        } catch (IOException e) {
            if (in.available() < 4) {
                throw e;
            }
        }
        if (in.available() < 4) {
            throw new CaptureFileException(file, Kind.NOT_A_CAPTURE, 0, in.available() == 0 ? "empty file"
                    : in.available() + " bytes, too short for a capture file header");
        }
        int magic = Bytes.i32(in.buf, in.pos, true);
        if (magic == PcapngReader.SECTION_HEADER) {
            return PcapngReader.open(file, in);
        }
        for (boolean bigEndian : new boolean[] {true, false}) {
            int m = bigEndian ? magic : Integer.reverseBytes(magic);
            if (m == PcapReader.MAGIC_MICROS || m == PcapReader.MAGIC_NANOS) {
                return PcapReader.open(file, in, m, bigEndian);
            }
            if (m == PcapReader.MAGIC_MODIFIED) {
                throw new CaptureFileException(file, Kind.UNSUPPORTED, 0,
                        "modified (Kuznetzov) pcap, magic a1b2cd34, is not supported");
            }
        }
        throw new CaptureFileException(file, Kind.NOT_A_CAPTURE, 0,
                String.format("not a pcap, pcapng or gzip-compressed capture (starts with 0x%08x)", magic));
    }

    private static FileChannel openChannel(Path file) throws CaptureFileException {
        if (Files.isDirectory(file)) {
            throw new CaptureFileException(file, Kind.NOT_FOUND, -1, "is a directory");
        }
        try {
            return FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new CaptureFileException(file, Kind.NOT_FOUND, -1, "no such file", e);
        } catch (AccessDeniedException e) {
            throw new CaptureFileException(file, Kind.NOT_FOUND, -1, "permission denied", e);
        } catch (IOException | SecurityException e) {
            throw new CaptureFileException(file, Kind.NOT_FOUND, -1, "cannot open: " + e.getMessage(), e);
        }
    }

    private static boolean isGzip(FileChannel channel) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(2);
        while (head.hasRemaining() && channel.read(head) >= 0) {
            // read the first two bytes, or fewer at the end of the file
        }
        channel.position(0);
        return head.position() == 2 && (head.get(0) & 0xFF) == 0x1F && (head.get(1) & 0xFF) == 0x8B;
    }

    private static CaptureFileException headerReadFailure(Path file, IOException e) {
        if (e instanceof EOFException) {
            return new CaptureFileException(file, Kind.NOT_A_CAPTURE, 0, "gzip file too short for a header", e);
        }
        if (e instanceof ZipException) {
            return new CaptureFileException(file, Kind.NOT_A_CAPTURE, 0, "unreadable gzip data (" + e.getMessage() + ")", e);
        }
        return new CaptureFileException(file, Kind.IO, 0, "read error at byte 0: " + e.getMessage(), e);
    }

    private static void closeQuietly(ReadableByteChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing was written: a failed close loses nothing
        }
    }
}
