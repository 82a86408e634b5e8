package io.siteflow.agent.publish.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * Writes flow records as JSON lines (one object per line) to a stream: standard output for
 * {@code --json}, or a file. Buffered; {@link #flush()} pushes the buffer out. Not thread-safe.
 *
 * <p>A write that fails (a full disk, a closed pipe) throws at once from {@link #accept}, {@link #flush} or
 * {@link #close}, as {@code UncheckedIOException("publish: json: NAME: cause")}, never silently: a
 * {@link PrintWriter} (standard output), which keeps its errors to itself, is asked after every write that reaches
 * it ({@link PrintWriter#checkError()}); {@link StandardOutput} also tells the cause.
 */
public final class JsonLinesSink implements FlowSink {
    private final JsonGenerator gen;
    private final boolean closeStream;
    private final String name;
    private long written;

    /**
     * @param out         where lines go
     * @param closeStream whether {@link #close()} closes {@code out} (false for standard output)
     */
    public JsonLinesSink(Writer out, boolean closeStream) {
        this(out, closeStream, closeStream ? "file" : "standard output");
    }

    /**
     * @param out         where lines go
     * @param closeStream whether {@link #close()} closes {@code out} (false for standard output)
     * @param name        what {@code out} is, for messages: the file name, or {@code "standard output"}
     */
    public JsonLinesSink(Writer out, boolean closeStream, String name) {
        this.name = name;
        try {
            JsonFactory f = new JsonFactory();
            this.gen = f.createGenerator(out instanceof PrintWriter pw ? new Checked(pw) : out);
            gen.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            gen.setRootValueSeparator(null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.closeStream = closeStream;
    }

    @Override
    public void accept(FlowRecord r) {
        try {
            FlowRecordJson.write(r, gen);
            gen.writeRaw('\n');
            written++;
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /** Records written so far. */
    public long written() {
        return written;
    }

    @Override
    public void flush() {
        try {
            gen.flush();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /** Flushes, and closes the stream when it is this sink's, even when the flush failed (then rethrown). */
    @Override
    public void close() {
        IOException failure = null;
        try {
            gen.flush();
        } catch (IOException e) {
            failure = e;
        }
        if (closeStream) {
            try (Writer target = (Writer) gen.getOutputTarget()) {
                gen.close();
            } catch (IOException e) {
                failure = failure != null ? failure : e;
            }
        }
        if (failure != null) {
            throw failed(failure);
        }
    }

    private UncheckedIOException failed(IOException e) {
        return new UncheckedIOException("publish: json: " + name + ": " + e.getMessage(), e);
    }

    /** A {@link PrintWriter} whose swallowed errors become exceptions again. */
    private static final class Checked extends Writer {
        private final PrintWriter out;

        Checked(PrintWriter out) {
            this.out = out;
        }

        @Override
        public void write(char[] buf, int off, int len) throws IOException {
            out.write(buf, off, len);
            check();
        }

        @Override
        public void flush() throws IOException {
            check(); // checkError() flushes
        }

        @Override
        public void close() throws IOException {
            out.close();
            check();
        }

        private void check() throws IOException {
            if (out.checkError()) {
                IOException cause = out instanceof StandardOutput so ? so.lastError() : null;
                throw cause != null ? new IOException(cause.getMessage(), cause) : new IOException("write failed");
            }
        }
    }
}
