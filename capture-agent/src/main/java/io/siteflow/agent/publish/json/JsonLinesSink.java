package io.siteflow.agent.publish.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * Writes flow records as JSON lines (one object per line) to a stream: standard output for
 * {@code --json}, or a file. Buffered; {@link #flush()} pushes the buffer out. Not thread-safe.
 */
public final class JsonLinesSink implements FlowSink {
    private final JsonGenerator gen;
    private final boolean closeStream;
    private long written;

    /**
     * @param out         where lines go
     * @param closeStream whether {@link #close()} closes {@code out} (false for standard output)
     */
    public JsonLinesSink(Writer out, boolean closeStream) {
        try {
            JsonFactory f = new JsonFactory();
            this.gen = f.createGenerator(out);
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
            throw new UncheckedIOException("publish: json: " + e.getMessage(), e);
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
            throw new UncheckedIOException("publish: json: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            gen.flush();
            if (closeStream) {
                gen.close();
                ((Writer) gen.getOutputTarget()).close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("publish: json: " + e.getMessage(), e);
        }
    }
}
