package io.siteflow.agent.app;

import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.publish.FanOutSink;
import io.siteflow.agent.publish.json.JsonLinesSink;
import io.siteflow.agent.publish.kafka.KafkaFlowSink;
import io.siteflow.agent.publish.kafka.KafkaSinkConfig;
import io.siteflow.model.wire.FlowKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The record sinks the options ask for: JSON lines and/or Kafka.
 *
 * @param all   every sink, in order
 * @param kafka the Kafka sink, or null without {@code --bootstrap}
 */
record Sinks(FlowSink all, KafkaFlowSink kafka) implements AutoCloseable {

    @Override
    public void close() {
        all.close();
    }

    static Sinks open(CaptureOptions o, PrintWriter out) {
        List<FlowSink> sinks = new ArrayList<>();
        KafkaFlowSink kafka = null;
        if (o.json() != null) {
            if ("-".equals(o.json())) {
                sinks.add(new JsonLinesSink(out, false, "standard output"));
            } else {
                try {
                    sinks.add(new JsonLinesSink(Files.newBufferedWriter(Path.of(o.json()), StandardCharsets.UTF_8), true,
                            o.json()));
                } catch (IOException e) {
                    throw new UncheckedIOException("--json=" + o.json() + ": " + e.getMessage(), e);
                }
            }
        }
        if (o.bootstrap() != null) {
            kafka = KafkaFlowSink.start(KafkaSinkConfig.builder(o.bootstrap(), o.spoolDir())
                    .clientId("siteflow-agent-" + o.agent())
                    .clientProperties(o.kafka())
                    .keyFunction(FlowKeys.forCapture(o.remoteCidrs(), o.file() != null, o.agent()))
                    .spoolMaxBytes(o.spoolMaxBytes())
                    .spoolSegmentBytes(Math.min(8L << 20, o.spoolMaxBytes()))
                    .build());
            sinks.add(kafka);
        }
        return new Sinks(new FanOutSink(sinks), kafka);
    }
}
