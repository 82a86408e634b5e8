package io.siteflow.agent.capture;

import java.nio.file.Path;

/**
 * A capture file that could not be read whole. The packets before {@link #offset()} were delivered.
 * The message names the file and the byte offset, e.g.
 * {@code "trace.pcap: cut short at byte 1234: packet record needs 60 bytes, 12 left"}.
 */
public final class CaptureFileException extends CaptureException {
    private static final long serialVersionUID = 1L;

    /** What is wrong with the file. */
    public enum Kind {
        /** The file does not exist or cannot be opened. */
        NOT_FOUND,
        /** The file is not a pcap, pcapng or gzip-compressed capture. */
        NOT_A_CAPTURE,
        /** A capture format or version this reader does not handle. */
        UNSUPPORTED,
        /** A record header or block that makes no sense. */
        CORRUPT,
        /** The file ends in the middle of a record. */
        TRUNCATED,
        /** An I/O error while reading. */
        IO
    }

    private final transient Path file;
    private final Kind kind;
    private final long offset;

    public CaptureFileException(Path file, Kind kind, long offset, String detail, Throwable cause) {
        super(format(file, kind, offset, detail), cause);
        this.file = file;
        this.kind = kind;
        this.offset = offset;
    }

    public CaptureFileException(Path file, Kind kind, long offset, String detail) {
        this(file, kind, offset, detail, null);
    }

    private static String format(Path file, Kind kind, long offset, String detail) {
        String where = switch (kind) {
            case NOT_FOUND, NOT_A_CAPTURE, IO -> "";
            case UNSUPPORTED -> offset < 0 ? "" : " at byte " + offset;
            case CORRUPT -> " corrupt at byte " + offset;
            case TRUNCATED -> " cut short at byte " + offset;
        };
        return file + ":" + where + (detail.isEmpty() ? "" : (where.isEmpty() ? " " : ": ") + detail);
    }

    public Path file() {
        return file;
    }

    public Kind kind() {
        return kind;
    }

    /** Byte offset in the file (in the decompressed stream for gzip files) where reading stopped, or -1. */
    public long offset() {
        return offset;
    }
}
