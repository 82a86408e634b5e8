package io.siteflow.cli.input.ipfix;

import io.siteflow.agent.export.BiflowJoiner;
import io.siteflow.agent.export.ExportCounters;
import io.siteflow.agent.export.ExportDecoder;
import io.siteflow.agent.export.ExporterState;
import io.siteflow.agent.export.Malformed;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.cli.input.flowlog.ReadResult;
import io.siteflow.model.FlowRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads an IPFIX file (RFC 5655: a sequence of IPFIX messages, as {@code nfcapd}'s peers, YAF or a capture of an
 * exporter's datagrams concatenated write them) with the collector's own decoder ({@link ExportDecoder}: templates
 * and options templates per observation domain, withdrawal, variable-length and enterprise fields, RFC 5103 biflows,
 * sampling) and joiner ({@link BiflowJoiner}: both directions into one record, the collector's active and idle
 * timeouts on the messages' export times). A file names no exporter: records carry {@value #EXPORTER}.
 *
 * <p>A message the decoder finds malformed is a problem named by the file and the message's byte offset, with the
 * decoder's message (whose offsets count from the message's start); the messages after it are read. A message
 * header that cannot be read (not version 10, a length below 16, a message cut short by the end of the file) stops
 * the file there, after what was read. Stateless.
 */
public final class IpfixFileReader {
    /** The exporter address records read from a file carry: a file names none. */
    public static final String EXPORTER = "0.0.0.0";
    private static final int HEADER = 16;
    /** Templates and domains held: the collector's defaults. */
    private static final int MAX_TEMPLATES = 4096;
    private static final int MAX_DOMAINS = 256;

    private IpfixFileReader() {
    }

    /** True when {@code head} (the file's first bytes) starts with an IPFIX message header and a set header. */
    public static boolean isIpfix(byte[] head) {
        if (head.length < HEADER + 4 || u16(head, 0) != 10) {
            return false;
        }
        int length = u16(head, 2);
        int set = u16(head, HEADER);
        int setLength = u16(head, HEADER + 2);
        return length >= HEADER + 4 && (set == 2 || set == 3 || set >= 256) && setLength >= 4
                && setLength <= length - HEADER;
    }

    /** Gives every flow record of {@code in} ({@code name} in messages) to {@code each}, as {@code agent}. */
    public static ReadResult read(String name, InputStream in, String agent, String idPrefix,
            Consumer<FlowRecord> each) throws IOException {
        List<String> problems = new ArrayList<>();
        long[] tally = new long[2];
        BiflowJoiner joiner = new BiflowJoiner(agent, name, idPrefix, FlowTableConfig.DEFAULTS, r -> {
            tally[0]++;
            tally[1] += r.packets() + r.rpackets();
            each.accept(r);
        });
        ExportCounters counters = new ExportCounters();
        ExportDecoder decoder = new ExportDecoder(counters, 1, Long.MAX_VALUE, MAX_TEMPLATES, MAX_DOMAINS);
        ExporterState exporter = ExporterState.of(EXPORTER);
        Map<Malformed, Long> seen = new EnumMap<>(Malformed.class);
        byte[] header = new byte[HEADER];
        long offset = 0;
        while (true) {
            int n = in.readNBytes(header, 0, HEADER);
            if (n == 0) {
                break;
            }
            int length = n == HEADER ? u16(header, 2) : 0;
            String bad = n < HEADER ? n + " bytes left, shorter than a message header"
                    : u16(header, 0) != 10 ? "version " + u16(header, 0) + " is not IPFIX (10)"
                    : length < HEADER ? "message length " + length + " is below the 16-byte header" : null;
            byte[] message = bad == null ? new byte[length] : null;
            if (message != null) {
                System.arraycopy(header, 0, message, 0, HEADER);
                int body = in.readNBytes(message, HEADER, length - HEADER);
                if (body < length - HEADER) {
                    bad = "message length " + length + ", the file ends " + (HEADER + body) + " bytes into it";
                }
            }
            if (bad != null) {
                problems.add(name + ": offset " + offset + ": " + bad + "; the rest of the file is not read");
                break;
            }
            long exportMs = u32(header, 4) * 1000;
            joiner.now(exportMs);
            decoder.decode(exporter, ByteBuffer.wrap(message), exportMs, joiner);
            newProblems(name, offset, counters, seen, problems);
            joiner.expire(exportMs);
            offset += length;
        }
        joiner.flushAll();
        List<String> notes = new ArrayList<>();
        if (counters.lostRecords() > 0) {
            notes.add(name + ": " + counters.lostRecords() + " records missing by the messages' sequence numbers");
        }
        return new ReadResult(problems, notes, tally[0], tally[1]);
    }

    /** A problem for the message at {@code offset} when the decoder counted a new fault in it. */
    private static void newProblems(String name, long offset, ExportCounters counters, Map<Malformed, Long> seen,
            List<String> problems) {
        for (Malformed kind : Malformed.values()) {
            long now = counters.malformed(kind);
            long before = seen.getOrDefault(kind, 0L);
            if (now > before) {
                seen.put(kind, now);
                String last = counters.lastMessage(kind);
                problems.add(name + ": message at offset " + offset + ": " + last.substring(last.indexOf(": ") + 2));
            }
        }
    }

    private static int u16(byte[] b, int at) {
        return (b[at] & 0xFF) << 8 | (b[at + 1] & 0xFF);
    }

    private static long u32(byte[] b, int at) {
        return (long) u16(b, at) << 16 | u16(b, at + 2);
    }
}
