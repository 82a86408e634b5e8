package io.siteflow.cli.input;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.agent.app.FileReplay;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.cli.input.flowlog.AwsFlowLogReader;
import io.siteflow.cli.input.flowlog.FlowLogJoiner;
import io.siteflow.cli.input.flowlog.FlowRecordLinesReader;
import io.siteflow.cli.input.flowlog.OciFlowLogReader;
import io.siteflow.cli.input.flowlog.ReadResult;
import io.siteflow.cli.input.ipfix.IpfixFileReader;
import io.siteflow.model.FlowRecord;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * The one input of the offline commands ({@code audit}, {@code whatif}, {@code isolation check}, {@code isolation
 * propose}): a file recognised by its content, not its name, turned into flow records. A capture (pcap, pcapng,
 * gzip-compressed) goes through the agent's packet path ({@link FileReplay}); flow-record JSON lines are read as
 * written; an IPFIX file (RFC 5655, plain or gzip-compressed) goes through the collector's decoder and joiner
 * ({@link IpfixFileReader}); AWS VPC Flow Logs and OCI VCN flow logs (plain or gzip-compressed) are joined into
 * bidirectional records ({@link FlowLogJoiner}). Anything else is handed to the capture reader, whose message says
 * why it is not one. Stateless.
 */
public final class FlowInput {
    /** What a file holds. */
    public enum Kind { CAPTURE, FLOW_RECORDS, IPFIX_FILE, AWS_FLOW_LOG, OCI_FLOW_LOG }

    /**
     * What a replay read.
     *
     * @param problems what was not read whole (a capture cut short, a malformed row as {@code file:line: field:
     *                 message}), empty when all was read: the command then exits {@code ExitCodes.INPUT}
     * @param notes    what was left out on purpose (REJECT rows, rows logged twice), printed to standard error
     * @param packets  packets read (a capture's) or in the records read (a flow file's)
     */
    public record Result(List<String> problems, List<String> notes, long packets) {
        public Result {
            problems = List.copyOf(problems);
            notes = List.copyOf(notes);
        }

        /** True when the whole input was read. */
        public boolean complete() {
            return problems.isEmpty();
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PEEK = 1 << 16;

    private FlowInput() {
    }

    /** What {@code file} holds, from its first bytes (decompressed when gzip); CAPTURE when it is nothing else. */
    public static Kind kind(Path file) {
        try (InputStream in = open(file)) {
            byte[] head = in.readNBytes(PEEK);
            if (head.length >= 4 && isCaptureMagic(head)) {
                return Kind.CAPTURE;
            }
            if (IpfixFileReader.isIpfix(head)) {
                return Kind.IPFIX_FILE;
            }
            String first = firstLine(new String(head, StandardCharsets.UTF_8));
            if (first.startsWith("[")) {
                JsonNode entry = firstArrayElement(head);
                return entry != null && entry.isObject() && OciFlowLogReader.data(entry) != null
                        ? Kind.OCI_FLOW_LOG : Kind.CAPTURE;
            }
            if (first.startsWith("{")) {
                JsonNode node = JSON.readTree(first);
                if (node != null && node.has("schema") && node.has("agent")) {
                    return Kind.FLOW_RECORDS;
                }
                return node != null && node.isObject() && OciFlowLogReader.data(node) != null
                        ? Kind.OCI_FLOW_LOG : Kind.FLOW_RECORDS;
            }
            if (AwsFlowLogReader.isHeader(first) || AwsFlowLogReader.isDefaultRow(first)) {
                return Kind.AWS_FLOW_LOG;
            }
        } catch (IOException | RuntimeException e) {
            return Kind.CAPTURE; // the capture reader names the problem
        }
        return Kind.CAPTURE;
    }

    /**
     * Sees that {@code file} can be read before any work is done with it.
     *
     * @return empty when it can; else the message ({@code "x.pcap: no such file"}, {@code "x.pcap: not a capture
     *         file ..."})
     */
    public static Optional<String> check(Path file) {
        Kind kind = kind(file);
        if (kind == Kind.CAPTURE) {
            return FileReplay.check(file);
        }
        return Files.isReadable(file) ? Optional.empty() : Optional.of(file + ": cannot read");
    }

    /** Gives every flow record of {@code file}, in order, to {@code each}, as {@code agent} would export them. */
    public static Result replay(Path file, String agent, Consumer<FlowRecord> each) {
        Kind kind = kind(file);
        if (kind == Kind.CAPTURE) {
            FileReplay.Result r = FileReplay.run(file, agent, FlowTableConfig.DEFAULTS, FlowSink.to(each::accept));
            return new Result(r.problems(), List.of(), r.counters().packets());
        }
        String name = file.toString();
        if (kind == Kind.IPFIX_FILE) {
            try (InputStream in = open(file)) {
                ReadResult r = IpfixFileReader.read(name, in, agent, agent + "-" + file.getFileName(), each);
                return new Result(r.problems(), r.notes(), r.packets());
            } catch (IOException e) {
                return new Result(List.of(name + ": cannot read: " + e.getMessage()), List.of(), 0);
            }
        }
        try (BufferedReader in = new BufferedReader(new InputStreamReader(open(file), StandardCharsets.UTF_8))) {
            String id = agent + "-" + file.getFileName();
            ReadResult r = switch (kind) {
                case FLOW_RECORDS -> FlowRecordLinesReader.read(name, in, each);
                case AWS_FLOW_LOG -> AwsFlowLogReader.read(name, in, new FlowLogJoiner(agent, id, each));
                case OCI_FLOW_LOG -> OciFlowLogReader.read(name, in, new FlowLogJoiner(agent, id, each));
                case CAPTURE, IPFIX_FILE -> throw new IllegalStateException(kind + " files are replayed above");
            };
            return new Result(r.problems(), r.notes(), r.packets());
        } catch (NoSuchFileException e) {
            return new Result(List.of(name + ": no such file"), List.of(), 0);
        } catch (IOException e) {
            return new Result(List.of(name + ": cannot read: " + e.getMessage()), List.of(), 0);
        }
    }

    private static InputStream open(Path file) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file));
        raw.mark(2);
        int b0 = raw.read();
        int b1 = raw.read();
        raw.reset();
        InputStream in = b0 == 0x1f && b1 == 0x8b ? new BufferedInputStream(new GZIPInputStream(raw)) : raw;
        return in.markSupported() ? in : new BufferedInputStream(in);
    }

    private static boolean isCaptureMagic(byte[] h) {
        int m = (h[0] & 0xff) << 24 | (h[1] & 0xff) << 16 | (h[2] & 0xff) << 8 | (h[3] & 0xff);
        return m == 0xa1b2c3d4 || m == 0xd4c3b2a1 || m == 0xa1b23c4d || m == 0x4d3cb2a1 || m == 0x0a0d0d0a;
    }

    /** The first element of the JSON array {@code head} starts with (it may be pretty-printed), or null. */
    private static JsonNode firstArrayElement(byte[] head) throws IOException {
        try (JsonParser p = JSON.createParser(head)) {
            return p.nextToken() == JsonToken.START_ARRAY && p.nextToken() == JsonToken.START_OBJECT
                    ? p.readValueAsTree() : null;
        }
    }

    private static String firstLine(String text) {
        for (String line : text.split("\n", -1)) {
            if (!line.isBlank()) {
                return line.strip();
            }
        }
        return "";
    }
}
