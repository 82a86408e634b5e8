package io.siteflow.cli.input.flowlog;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads an AWS VPC Flow Logs file: space-separated rows, the default format (version 2: {@code version account-id
 * interface-id srcaddr dstaddr srcport dstport protocol packets bytes start end action log-status}) or a custom
 * format named by the file's header line (AWS field names, any order; {@code srcaddr dstaddr srcport dstport protocol
 * packets bytes start end} required; {@code pkt-srcaddr} and {@code pkt-dstaddr}, when logged, are the addresses
 * taken, since {@code srcaddr}/{@code dstaddr} name the interface's own address for traffic through it). A header
 * without a required field is a problem and the file is not read; fields this reader does not use are skipped. A
 * file without a header is read as the default format. Rows with
 * {@code log-status} NODATA (no traffic in the window) are skipped; SKIPDATA (AWS skipped records in the window) is a
 * problem, since the totals miss them; REJECT rows are left out of the totals and counted. {@code tcp-flags}, when
 * logged, decides the initiator. Stateless.
 */
public final class AwsFlowLogReader {
    /** The default format's fields, in order. */
    public static final List<String> DEFAULT_FORMAT = List.of("version", "account-id", "interface-id", "srcaddr",
            "dstaddr", "srcport", "dstport", "protocol", "packets", "bytes", "start", "end", "action", "log-status");
    private static final List<String> REQUIRED = List.of("srcaddr", "dstaddr", "srcport", "dstport", "protocol",
            "packets", "bytes", "start", "end");
    /** The fields AWS documents for flow log records (versions 2 to 8): two of them make a line a header. */
    private static final Set<String> FIELDS = Set.of("version", "account-id", "interface-id", "srcaddr", "dstaddr",
            "srcport", "dstport", "protocol", "packets", "bytes", "start", "end", "action", "log-status", "vpc-id",
            "subnet-id", "instance-id", "tcp-flags", "type", "pkt-srcaddr", "pkt-dstaddr", "region", "az-id",
            "sublocation-type", "sublocation-id", "pkt-src-aws-service", "pkt-dst-aws-service", "flow-direction",
            "traffic-path", "ecs-cluster-arn", "ecs-cluster-name", "ecs-container-instance-arn",
            "ecs-container-instance-id", "ecs-container-id", "ecs-second-container-id", "ecs-service-name",
            "ecs-task-definition-arn", "ecs-task-arn", "ecs-task-id", "reject-reason");

    private AwsFlowLogReader() {
    }

    /** True when {@code line} is a header: at least two of its words are AWS field names. */
    public static boolean isHeader(String line) {
        return Arrays.stream(line.trim().split(" +")).filter(FIELDS::contains).limit(2).count() == 2;
    }

    /**
     * What is wrong with a header, or null: a required field missing (fields AWS adds later than this list are
     * read past, not refused).
     */
    private static String headerProblem(List<String> fields) {
        List<String> missing = REQUIRED.stream().filter(f -> !fields.contains(f)).toList();
        return missing.isEmpty() ? null : "no " + String.join(", ", missing) + " (a custom format needs "
                + String.join(" ", REQUIRED) + "); the file is not read";
    }

    /** True when {@code line} is a default-format row without a header: 14 fields, the first "2". */
    public static boolean isDefaultRow(String line) {
        String[] words = line.trim().split(" +");
        return words.length == DEFAULT_FORMAT.size() && words[0].equals("2");
    }

    /** Reads every row of {@code in} ({@code name} in messages) into {@code joiner}, then flushes it. */
    public static ReadResult read(String name, BufferedReader in, FlowLogJoiner joiner) throws IOException {
        List<String> problems = new ArrayList<>();
        List<String> fields = null;
        long rejected = 0;
        long rejectedBytes = 0;
        int lineNo = 0;
        for (String line; (line = in.readLine()) != null; ) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            if (fields == null) {
                if (isHeader(line)) {
                    fields = List.of(line.trim().split(" +"));
                    String problem = headerProblem(fields);
                    if (problem != null) {
                        problems.add(name + ":" + lineNo + ": header: " + problem);
                        break;
                    }
                    continue;
                }
                fields = DEFAULT_FORMAT;
            }
            String[] words = line.trim().split(" +");
            if (words.length != fields.size()) {
                problems.add(name + ":" + lineNo + ": row: " + words.length + " fields, the format has "
                        + fields.size());
                continue;
            }
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < words.length; i++) {
                row.put(fields.get(i), words[i]);
            }
            String status = row.getOrDefault("log-status", "OK");
            if (status.equals("NODATA")) {
                continue;
            }
            if (status.equals("SKIPDATA")) {
                problems.add(name + ":" + lineNo + ": log-status: SKIPDATA: AWS skipped records in this capture "
                        + "window; the totals miss them");
                continue;
            }
            try {
                FlowLogRow r = row(name, row);
                if ("REJECT".equals(row.get("action"))) {
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
            notes.add(name + ": " + joiner.duplicateRows() + " rows of conversations another interface logged first "
                    + "left out (counted once)");
        }
        return new ReadResult(problems, notes, joiner.records(), joiner.packets());
    }

    /** {@code pkt-srcaddr} or {@code pkt-dstaddr} when logged (the packet's own address), else the field. */
    private static String address(Map<String, String> row, String field) throws BadField {
        String pkt = row.get("pkt-" + field);
        return pkt != null && !pkt.equals("-") ? BadField.address("pkt-" + field, pkt)
                : BadField.address(field, row.get(field));
    }

    private static FlowLogRow row(String name, Map<String, String> row) throws BadField {
        String iface = row.getOrDefault("interface-id", "-");
        String flags = row.get("tcp-flags");
        return new FlowLogRow(iface.equals("-") ? name : iface,
                (int) BadField.number("protocol", row.get("protocol"), 0, 255),
                address(row, "srcaddr"),
                (int) BadField.number("srcport", row.get("srcport"), 0, 65535),
                address(row, "dstaddr"),
                (int) BadField.number("dstport", row.get("dstport"), 0, 65535),
                BadField.number("bytes", row.get("bytes"), 0, Long.MAX_VALUE),
                BadField.number("packets", row.get("packets"), 0, Long.MAX_VALUE),
                flags == null || flags.equals("-") ? 0 : (int) BadField.number("tcp-flags", flags, 0, 255),
                BadField.number("start", row.get("start"), 0, Long.MAX_VALUE / 1000) * 1000,
                BadField.number("end", row.get("end"), 0, Long.MAX_VALUE / 1000) * 1000);
    }
}
