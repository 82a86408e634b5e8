package io.siteflow.agent.publish.json;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * The process's standard output as a {@link PrintWriter} (auto-flushed on {@code println}) that, unlike
 * {@code System.out}, keeps the cause of a failed write ({@link #lastError()}): {@code Broken pipe} when the reader
 * went away, {@code No space left on device} when it is redirected to a full disk. {@link JsonLinesSink} reports
 * it. Thread-safe as {@link PrintWriter}.
 */
public final class StandardOutput extends PrintWriter {
    private final Remembering stream;

    private StandardOutput(Remembering stream, Charset charset) {
        super(new BufferedWriter(new OutputStreamWriter(stream, charset)), true);
        this.stream = stream;
    }

    /** Standard output in the encoding the JVM uses for it ({@code stdout.encoding}, else the default charset). */
    public static StandardOutput open() {
        String enc = System.getProperty("stdout.encoding", System.getProperty("sun.stdout.encoding"));
        Charset charset = enc != null && Charset.isSupported(enc) ? Charset.forName(enc) : Charset.defaultCharset();
        return new StandardOutput(new Remembering(new FileOutputStream(FileDescriptor.out)), charset);
    }

    /** The last write or flush that failed, or null. */
    public IOException lastError() {
        return stream.last;
    }

    private static final class Remembering extends FilterOutputStream {
        private volatile IOException last;

        Remembering(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                last = e;
                throw e;
            }
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                last = e;
                throw e;
            }
        }
    }
}
