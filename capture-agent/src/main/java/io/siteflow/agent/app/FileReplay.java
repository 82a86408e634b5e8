package io.siteflow.agent.app;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.publish.FlowSink;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a capture file through the agent's pipeline (decode → filter → flow table) into a sink, on the
 * calling thread: what {@code siteflow audit} and tests use to turn a file into flow records exactly as
 * {@code siteflow capture -r} does.
 */
public final class FileReplay {

    /**
     * What a replay read.
     *
     * @param problems  messages about input not read whole (open failure, corrupt or cut-short file,
     *                  unsupported link types), empty when the file was read whole
     * @param counters  decode counters
     * @param flows     flows created
     * @param evictions flows exported early
     * @param records   records exported
     */
    public record Result(List<String> problems, DecodeCounters counters, long flows, long evictions, long records) {
        public Result {
            problems = List.copyOf(problems);
        }

        /** True when the whole file was read and every link type was decoded. */
        public boolean complete() {
            return problems.isEmpty();
        }
    }

    private FileReplay() {
    }

    /**
     * Replays {@code file} with every IP packet kept (no {@code -F}), flushing all flows at the end. The
     * sink is flushed, not closed.
     */
    public static Result run(Path file, String agent, FlowTableConfig config, FlowSink sink) {
        return run(file, agent, config, new RemoteSiteFilter(List.of()), sink);
    }

    /** As {@link #run(Path, String, FlowTableConfig, FlowSink)} with a {@code -F} filter. */
    public static Result run(Path file, String agent, FlowTableConfig config, RemoteSiteFilter filter, FlowSink sink) {
        List<String> problems = new ArrayList<>();
        CaptureFileReader reader;
        try {
            reader = CaptureFileReader.open(file);
        } catch (CaptureFileException e) {
            problems.add(e.getMessage());
            return new Result(problems, new DecodeCounters(), 0, 0, 0);
        }
        RecordFactory factory = new RecordFactory(agent, reader.name(), AgentIds.forFile(agent, file));
        FlowTable table = new FlowTable(config, factory, sink, Sources.l7Tracker());
        CapturePipeline pipeline = new CapturePipeline(filter, table, null,
                lt -> problems.add(unsupported(reader.name(), lt)));
        try (reader) {
            reader.run(pipeline);
        } catch (CaptureFileException e) {
            problems.add(e.getMessage());
        }
        table.flushAll();
        sink.flush();
        return new Result(problems, pipeline.counters(), table.flowsCreated(), table.evictions(), factory.count());
    }

    static String unsupported(String source, int linkType) {
        return source + ": link type " + linkType + " is not supported (" + LinkTypeNames.name(linkType)
                + "): its packets are not counted";
    }
}
