package io.siteflow.agent.app;

import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.agent.publish.FanOutSink;
import io.siteflow.agent.publish.FlowSink;
import io.siteflow.agent.publish.json.JsonLinesSink;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Builds the record sinks the options ask for. */
final class Sinks {
    private Sinks() {
    }

    static FlowSink open(CaptureOptions o, RemoteSiteFilter filter, PrintWriter out) {
        List<FlowSink> sinks = new ArrayList<>();
        if (o.json() != null) {
            if ("-".equals(o.json())) {
                sinks.add(new JsonLinesSink(out, false));
            } else {
                try {
                    sinks.add(new JsonLinesSink(Files.newBufferedWriter(Path.of(o.json()), StandardCharsets.UTF_8), true));
                } catch (IOException e) {
                    throw new UncheckedIOException("--json " + o.json() + ": " + e.getMessage(), e);
                }
            }
        }
        return new FanOutSink(sinks);
    }
}
