package io.siteflow.cli.input.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.cli.input.flowlog.AwsFlowLogReader;
import io.siteflow.cli.input.flowlog.FlowLogJoiner;
import io.siteflow.cli.input.flowlog.FlowRecordLinesReader;
import io.siteflow.cli.input.flowlog.OciFlowLogReader;
import io.siteflow.cli.input.flowlog.ReadResult;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fuzz harnesses for the offline flow-file readers of {@code audit}, {@code whatif} and {@code isolation}: AWS VPC
 * Flow Logs ({@link AwsFlowLogReader}), OCI VCN flow logs ({@link OciFlowLogReader}, lines or the console's JSON
 * array) and flow-record JSON lines ({@link FlowRecordLinesReader}); the input is the file's text (UTF-8). Whatever
 * it holds: nothing but {@link IOException} is thrown (never, from text in memory); every problem is named
 * {@code flow.log:LINE: ...} with a line of the file; the records given on are the ones counted, their packets the
 * ones counted, and each writes to JSON and reads back the same; JSON lines give one record or one problem per
 * non-blank line. Seeds: {@code src/test/resources/io/siteflow/cli/input/fuzz/FlowLogFuzzTestInputs/} (written by
 * {@link SeedCorpus}); docs/FUZZING.md.
 */
class FlowLogFuzzTest {
    private static final String NAME = "flow.log";
    private static final Pattern PROBLEM = Pattern.compile("flow\\.log:(\\d+): .+", Pattern.DOTALL);

    @FuzzTest
    void readsAnyAwsFlowLog(byte[] input) throws IOException {
        String text = new String(input, StandardCharsets.UTF_8);
        List<FlowRecord> records = new ArrayList<>();
        ReadResult r = AwsFlowLogReader.read(NAME, reader(text), joiner(records));
        check(text, r, records);
    }

    @FuzzTest
    void readsAnyOciFlowLog(byte[] input) throws IOException {
        String text = new String(input, StandardCharsets.UTF_8);
        List<FlowRecord> records = new ArrayList<>();
        ReadResult r = OciFlowLogReader.read(NAME, reader(text), joiner(records));
        check(text, r, records);
    }

    @FuzzTest
    void readsAnyFlowRecordLines(byte[] input) throws IOException {
        String text = new String(input, StandardCharsets.UTF_8);
        List<FlowRecord> records = new ArrayList<>();
        ReadResult r = FlowRecordLinesReader.read(NAME, reader(text), records::add);
        check(text, r, records);
        long nonBlank = lines(text).stream().filter(l -> !l.isBlank()).count();
        assertThat(r.records() + r.problems().size()).isEqualTo(nonBlank);
    }

    private static void check(String text, ReadResult r, List<FlowRecord> records) {
        int lines = lines(text).size();
        for (String p : r.problems()) {
            if (p.startsWith(NAME + ": ")) {
                continue; // about the whole file (a JSON array cut short, SKIPDATA rows)
            }
            Matcher m = PROBLEM.matcher(p);
            assertThat(m.matches()).as(p).isTrue();
            assertThat(Long.parseLong(m.group(1))).as(p).isBetween(1L, Math.max(lines, 1L));
        }
        for (String n : r.notes()) {
            assertThat(n).startsWith(NAME + ": ");
        }
        assertThat(r.records()).isEqualTo(records.size());
        assertThat(r.packets()).isEqualTo(records.stream().mapToLong(f -> f.packets() + f.rpackets()).sum());
        for (FlowRecord f : records) {
            String json = FlowRecordJson.toJson(f);
            try {
                assertThat(FlowRecordJson.parse(json)).as(json).isEqualTo(f);
            } catch (FlowRecordFormatException e) {
                throw new AssertionError("a record read does not read back: " + e.getMessage() + ": " + json, e);
            }
        }
    }

    /** The lines as {@link BufferedReader} counts them. */
    private static List<String> lines(String text) {
        try {
            return reader(text).lines().toList();
        } catch (RuntimeException e) {
            throw new AssertionError(e);
        }
    }

    private static BufferedReader reader(String text) {
        return new BufferedReader(new StringReader(text));
    }

    private static FlowLogJoiner joiner(List<FlowRecord> records) {
        return new FlowLogJoiner("audit", "audit-flow.log", records::add);
    }
}
