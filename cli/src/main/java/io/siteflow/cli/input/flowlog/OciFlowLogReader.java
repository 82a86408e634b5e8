package io.siteflow.cli.input.flowlog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads OCI VCN flow logs as the Logging service exports them: one JSON log entry a line, the flow in its
 * {@code data} object ({@code sourceAddress destinationAddress sourcePort destinationPort protocol packets bytesOut
 * startTime endTime action status}, times in epoch seconds), at the top level or under {@code logContent} (a
 * search export), the VNIC in {@code oracle.vnicocid}. {@code status} NODATA rows are skipped, SKIPDATA is a
 * problem (the totals miss records), REJECT rows are left out of the totals and counted; ports may be absent for
 * protocols without ports (ICMP). Stateless.
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

    /** Reads every line of {@code in} ({@code name} in messages) into {@code joiner}, then flushes it. */
    public static ReadResult read(String name, BufferedReader in, FlowLogJoiner joiner) throws IOException {
        List<String> problems = new ArrayList<>();
        long rejected = 0;
        long rejectedBytes = 0;
        int lineNo = 0;
        for (String line; (line = in.readLine()) != null; ) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            try {
                JsonNode entry;
                try {
                    entry = JSON.readTree(line);
                } catch (JsonProcessingException e) {
                    throw new BadField("entry", "not JSON: " + e.getOriginalMessage());
                }
                JsonNode data = entry == null || !entry.isObject() ? null : data(entry);
                if (data == null) {
                    throw new BadField("data", "missing");
                }
                String status = text(data, "status", "OK");
                if (status.equals("NODATA")) {
                    continue;
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
        joiner.flush();
        List<String> notes = new ArrayList<>();
        if (rejected > 0) {
            notes.add(name + ": " + rejected + " REJECT rows (" + rejectedBytes + " bytes) left out of the totals");
        }
        if (joiner.duplicateRows() > 0) {
            notes.add(name + ": " + joiner.duplicateRows() + " rows of conversations another VNIC logged first "
                    + "left out (counted once)");
        }
        return new ReadResult(problems, notes, joiner.records(), joiner.packets());
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
