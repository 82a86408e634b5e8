package io.siteflow.agent.publish.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** JSON lines out, and every failed write surfacing with the output's name and the cause. */
class JsonLinesSinkTest {
    private static final String LINE = "{\"schema\":1,\"agent\":\"a\",\"iface\":\"eth0\",\"start\":1764000000000,"
            + "\"end\":1764000000500,\"proto\":6,\"src\":\"10.2.0.20\",\"srcPort\":40112,\"dst\":\"10.1.0.10\","
            + "\"dstPort\":1521,\"bytes\":1000,\"packets\":10,\"rbytes\":2000,\"rpackets\":12,\"frameBytes\":1140,"
            + "\"rframeBytes\":2168,\"tcpFlags\":27,\"rtcpFlags\":27,\"final\":false,\"id\":\"run1-1\"}";

    private static FlowRecord record() throws Exception {
        return FlowRecordJson.parse(LINE);
    }

    /** A writer whose every write fails, as a pipe whose reader went away. */
    private static final class BrokenPipe extends Writer {
        @Override
        public void write(char[] buf, int off, int len) throws IOException {
            throw new IOException("Broken pipe");
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void writesOneLinePerRecord() throws Exception {
        StringWriter out = new StringWriter();
        JsonLinesSink sink = new JsonLinesSink(new PrintWriter(out), false, "standard output");
        sink.accept(record());
        sink.accept(record());
        sink.flush();
        assertThat(out.toString()).isEqualTo(FlowRecordJson.toJson(record()) + "\n" + FlowRecordJson.toJson(record())
                + "\n");
        assertThat(sink.written()).isEqualTo(2);
    }

    @Test
    void aFullDiskFailsNamingTheFile() throws Exception {
        Path full = Path.of("/dev/full");
        JsonLinesSink sink = new JsonLinesSink(Files.newBufferedWriter(full, StandardCharsets.UTF_8), true, "/dev/full");
        FlowRecord r = record();

        assertThatThrownBy(() -> {
            for (int i = 0; i < 1000; i++) {
                sink.accept(r);
            }
            sink.flush();
        }).isInstanceOf(UncheckedIOException.class).hasMessage("publish: json: /dev/full: No space left on device");
        assertThatThrownBy(sink::close).isInstanceOf(UncheckedIOException.class)
                .hasMessage("publish: json: /dev/full: No space left on device");
    }

    @Test
    void aPrintWriterThatSwallowedAnErrorFailsTheSink() throws Exception {
        PrintWriter out = new PrintWriter(new BrokenPipe());
        JsonLinesSink sink = new JsonLinesSink(out, false, "standard output");
        sink.accept(record());

        assertThatThrownBy(sink::flush).isInstanceOf(UncheckedIOException.class)
                .hasMessage("publish: json: standard output: write failed");
    }
}
