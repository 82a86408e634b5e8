package io.siteflow.cli.input.flowlog;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.FilterReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads OCI VCN flow logs as the Logging service exports them: one JSON log entry a line, the flow in its
 * {@code data} object ({@code sourceAddress destinationAddress sourcePort destinationPort protocol packets bytesOut
 * startTime endTime action status}, times in epoch seconds), at the top level or under {@code logContent}; the
 * console's search export, a JSON array of entries, is read too. The VNIC is {@code oracle.vnicocid}. {@code status}
 * NODATA rows are skipped, SKIPDATA is a problem (the totals miss records), REJECT rows are left out of the totals
 * and counted; ports may be absent for protocols without ports (ICMP). Stateless.
 */
public final class OciFlowLogReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private OciFlowLogReader() {
    }

    /** The entry's flow: {@code data}, or {@code logContent.data}; null when there is none. */
    public static JsonNode data(JsonNode entry) {
        JsonNode content = entry.has("logContent") ? entry.get("logContent") : entry;
        JsonNode data = content.get("data");
        return data != null && data.isObject() ? data : null;
    }

    /**
     * Reads every entry of {@code in} ({@code name} in messages) into {@code joiner}, then flushes it: one entry a
     * line, or one JSON array of entries (the console's search export), each named by the line it starts on.
     */
    public static ReadResult read(String name, BufferedReader in, FlowLogJoiner joiner) throws IOException {
        Tally tally = new Tally(name, joiner);
        in.mark(1 << 16);
        int first;
        do {
            first = in.read();
        } while (first >= 0 && Character.isWhitespace(first));
        in.reset();
        if (first == '[') {
            readArray(in, tally);
        } else {
            readLines(in, tally);
        }
        joiner.flush();
        List<String> notes = new ArrayList<>();
        if (tally.rejected > 0) {
            notes.add(name + ": " + tally.rejected + " REJECT rows (" + tally.rejectedBytes
                    + " bytes) left out of the totals");
        }
        if (joiner.duplicateRows() > 0) {
            notes.add(name + ": " + joiner.duplicateRows() + " rows of conversations another VNIC logged first "
                    + "left out (counted once)");
        }
        return new ReadResult(tally.problems, notes, joiner.records(), joiner.packets());
    }

    private static void readLines(BufferedReader in, Tally tally) throws IOException {
        int lineNo = 0;
        for (String line; (line = in.readLine()) != null; ) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            JsonNode entry;
            try {
                entry = JSON.readTree(line);
            } catch (JsonProcessingException e) {
                tally.problems.add(tally.name + ":" + lineNo + ": entry: not JSON: " + e.getOriginalMessage());
                continue;
            }
            tally.take(entry, lineNo);
        }
    }

    /**
     * A JSON array of entries; JSON that does not parse ends the file there (an array cannot be resynchronised). A
     * fault at the end of a file that ends with a line break is named on the file's last line, not the one after it.
     */
    private static void readArray(BufferedReader in, Tally tally) throws IOException {
        LineCountingReader lines = new LineCountingReader(in);
        try (JsonParser p = JSON.createParser(lines)) {
            p.nextToken(); // [
            while (p.nextToken() != JsonToken.END_ARRAY) {
                int lineNo = p.currentTokenLocation().getLineNr();
                tally.take(p.readValueAsTree(), lineNo);
            }
        } catch (JsonProcessingException e) {
            long line = Math.min(e.getLocation().getLineNr(), lines.lines());
            tally.problems.add(tally.name + ":" + line + ": entry: not JSON: " + e.getOriginalMessage()
                    + "; the rest of the file is not read");
        }
    }

    /** Counts the lines of what was read through it, as {@link BufferedReader} counts them (\n, \r, \r\n). */
    private static final class LineCountingReader extends FilterReader {
        private long breaks;
        private int last = -1;

        LineCountingReader(Reader in) {
            super(in);
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            for (int i = off; i < off + n; i++) {
                char c = buf[i];
                if (c == '\n' && last != '\r' || c == '\r') {
                    breaks++;
                }
                last = c;
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            char[] one = new char[1];
            return read(one, 0, 1) < 0 ? -1 : one[0];
        }

        /** Lines read so far: a last line without a line break counts too. */
        long lines() {
            return breaks + (last >= 0 && last != '\n' && last != '\r' ? 1 : 0);
        }
    }

    /** What one file gave: problems, REJECT rows. */
    private static final class Tally {
        final String name;
        final FlowLogJoiner joiner;
        final List<String> problems = new ArrayList<>();
        long rejected;
        long rejectedBytes;

        Tally(String name, FlowLogJoiner joiner) {
            this.name = name;
            this.joiner = joiner;
        }

        void take(JsonNode entry, int lineNo) {
            try {
                JsonNode data = entry == null || !entry.isObject() ? null : data(entry);
                if (data == null) {
                    throw new BadField("data", "missing");
                }
                String status = text(data, "status", "OK");
                if (status.equals("NODATA")) {
                    return;
                }
                if (status.equals("SKIPDATA")) {
                    throw new BadField("status", "SKIPDATA: OCI skipped records in this capture window; the totals "
                            + "miss them");
                }
                FlowLogRow r = row(name, entry, data);
                if ("REJECT".equals(text(data, "action", "ACCEPT"))) {
                    rejected++;
                    rejectedBytes += r.bytes();
                } else {
                    joiner.add(r);
                }
            } catch (BadField e) {
                problems.add(name + ":" + lineNo + ": " + e.getMessage());
            }
        }
    }

    private static FlowLogRow row(String name, JsonNode entry, JsonNode data) throws BadField {
        JsonNode content = entry.has("logContent") ? entry.get("logContent") : entry;
        String vnic = content.path("oracle").path("vnicocid").asText("");
        int proto = (int) number(data, "protocol", 0, 255);
        boolean ports = proto == 6 || proto == 17 || proto == 132;
        return new FlowLogRow(vnic.isEmpty() ? name : vnic, proto,
                BadField.address("sourceAddress", text(data, "sourceAddress", null)),
                ports || data.has("sourcePort") ? (int) number(data, "sourcePort", 0, 65535) : 0,
                BadField.address("destinationAddress", text(data, "destinationAddress", null)),
                ports || data.has("destinationPort") ? (int) number(data, "destinationPort", 0, 65535) : 0,
                number(data, "bytesOut", 0, Long.MAX_VALUE), number(data, "packets", 0, Long.MAX_VALUE), 0,
                number(data, "startTime", 0, Long.MAX_VALUE / 1000) * 1000,
                number(data, "endTime", 0, Long.MAX_VALUE / 1000) * 1000);
    }

    private static String text(JsonNode data, String field, String missing) {
        JsonNode v = data.get(field);
        return v == null || v.isNull() ? missing : v.asText();
    }

    private static long number(JsonNode data, String field, long min, long max) throws BadField {
        JsonNode v = data.get(field);
        if (v != null && v.isIntegralNumber()) {
            return BadField.number(field, v.asText(), min, max);
        }
        return BadField.number(field, v == null || v.isNull() ? null : v.isTextual() ? v.asText() : v.toString(),
                min, max);
    }
}
