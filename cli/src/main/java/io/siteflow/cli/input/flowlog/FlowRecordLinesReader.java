package io.siteflow.cli.input.flowlog;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads flow-record JSON lines, what {@code siteflow capture --json} and {@code siteflow collect --json} write
 * ({@link FlowRecordJson}, one record a line): the records as they were written, L7, RTT and DB calls included. A
 * line that does not parse is a problem named by file and line; the lines around it are read. Stateless.
 */
public final class FlowRecordLinesReader {
    private FlowRecordLinesReader() {
    }

    /** Gives every record of {@code in} ({@code name} in messages) to {@code each}. */
    public static ReadResult read(String name, BufferedReader in, Consumer<FlowRecord> each) throws IOException {
        List<String> problems = new ArrayList<>();
        long records = 0;
        long packets = 0;
        int lineNo = 0;
        for (String line; (line = in.readLine()) != null; ) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            try {
                FlowRecord r = FlowRecordJson.parse(line);
                records++;
                packets += r.totalPackets();
                each.accept(r);
            } catch (FlowRecordFormatException e) {
                problems.add(name + ":" + lineNo + ": record: " + e.getMessage());
            }
        }
        return new ReadResult(problems, List.of(), records, packets);
    }
}
