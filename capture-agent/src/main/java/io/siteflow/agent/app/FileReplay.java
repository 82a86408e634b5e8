package io.siteflow.agent.app;

import io.siteflow.agent.capture.CaptureException;
import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.metrics.DecodeCounters;
import io.siteflow.agent.pipeline.PacketFlows;
import io.siteflow.agent.pipeline.Pipeline;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads a capture file through the agent's packet source ({@link PacketFlows}: decode → filter → flow table) into a
 * sink, on the calling thread: what {@code siteflow audit} and tests use to turn a file into flow records exactly as
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
     * Opens and closes {@code file} to see that it can be read as a capture, before any work is done with it.
     *
     * @return empty when it opens; else the message ({@code "x.pcap: no such file"}, {@code "x.pcap: not a
     *         capture file ..."})
     */
    public static Optional<String> check(Path file) {
        try (CaptureFileReader reader = CaptureFileReader.open(file)) {
            return Optional.empty();
        } catch (CaptureFileException e) {
            return Optional.of(e.getMessage());
        }
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
        PacketFlows flows = new PacketFlows(reader,
                new Pipeline.Settings(agent, AgentIds.forFile(agent, file), config, filter, null), false);
        Pipeline pipeline = flows.pipeline();
        try (flows) {
            flows.run(sink);
        } catch (CaptureException e) {
            throw new IllegalStateException(e.getMessage(), e); // a file reader throws CaptureFileException only
        }
        problems.addAll(pipeline.problems());
        return new Result(problems, pipeline.counters(), pipeline.table().flowsCreated(), pipeline.table().evictions(),
                pipeline.records());
    }
}
