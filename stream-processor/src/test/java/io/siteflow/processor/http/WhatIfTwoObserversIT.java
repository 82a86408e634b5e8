package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.CallHistogram;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.model.wire.Topics;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.processor.app.ProcessCommand;
import io.siteflow.processor.query.WhatIfSource;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfJson;
import io.siteflow.rules.whatif.WhatIfReport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /api/whatif}, answered from the what-if stage's stores of a real processor ({@code siteflow process}) on a
 * real broker, when the host agent and the edge agent both sent the same flows: the same report as
 * {@code siteflow whatif} over the host agent's records alone (a server seen by both was counted twice before the
 * observer rule was applied to the what-if).
 */
class WhatIfTwoObserversIT {
    private static final long T0 = 1_764_000_000_000L;
    private static final String SITES = """
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.2.0.20, name: wls3, role: app-server }
              - { address: 10.2.0.21, name: wls4, role: app-server }
            """;
    @TempDir
    Path dir;

    @Test
    void theHostAgentAndTheEdgeAgentsCopiesOfTheSameFlowsGiveTheHostAgentsWhatIf() throws Exception {
        SiteModel model = SiteModelLoader.parse("sites.yaml", SITES).orThrow();
        List<FlowRecord> host = List.of(tcp("wls3", 1, "10.2.0.20", "10.1.0.10", 1521, 900_000, 6_500L, 2_000),
                tcp("wls3", 2, "10.2.0.20", "10.2.0.21", 7001, 50_000, 300L, 0),
                tcp("wls3", 3, "10.2.0.20", "10.1.0.10", 1522, 10_000, 6_400L, 30));
        List<FlowRecord> both = new ArrayList<>();
        for (FlowRecord r : host) {
            both.add(r);
            both.add(tcp("edge-b", r));
        }
        WhatIf offline = new WhatIf(model, "wls3", "region1");
        host.forEach(offline::accept);

        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("broker")).build()) {
            broker.start();
            TopicAdmin.ensureTopics(broker.bootstrap(), SiteflowTopics.SINGLE_NODE);
            ProcessCommand command = new ProcessCommand();
            var cl = ProcessCommand.commandLine(command);
            cl.setOut(new PrintWriter(new StringWriter(), true));
            Path sites = Files.writeString(dir.resolve("sites.yaml"), SITES);
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cl.execute("--bootstrap",
                    broker.bootstrap(), "--sites", sites.toString(), "--state-dir", dir.resolve("state").toString(),
                    "--application-id", "it-whatif", "--kafka", "commit.interval.ms=100"));
            try {
                Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> exit.isDone() || command.runtime()
                        .map(rt -> rt.streams().state() == KafkaStreams.State.RUNNING).orElse(false));
                assertThat(exit).isNotDone();
                send(broker.bootstrap(), both);
                WhatIfSource whatIf = command.runtime().orElseThrow().whatIf();

                // the stores hold what the stage wrote at its last commit: wait until every record is in
                Awaitility.await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
                        assertThat(whatIf.whatIf("wls3", "region1")).isEqualTo(offline.report()));
                WhatIfReport streamed = whatIf.whatIf("wls3", "region1");
                HttpResponse<String> api;
                try (ApiServer server = new ApiServer(ApiServer.Settings.loopback(0), FakeQueries.create(
                        ApiServerTest.NOW, true), Optional.empty(), () -> "", whatIf).start()) {
                    api = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url()
                            + "/api/whatif?server=wls3&site=region1")).build(), HttpResponse.BodyHandlers.ofString());
                }

                assertThat(streamed).isEqualTo(offline.report());
                assertThat(streamed.crossBytesBefore()).isEqualTo(2 * 910_000);
                assertThat(streamed.callsStopPaying()).isEqualTo(2_030);
                assertThat(api.statusCode()).isEqualTo(200);
                assertThat(api.body()).isEqualTo(WhatIfJson.toJson(offline.report()));
            } finally {
                command.stop();
                assertThat(exit.get(60, TimeUnit.SECONDS)).isEqualTo(0);
            }
        }
    }

    private static void send(String bootstrap, List<FlowRecord> records) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class))) {
            for (FlowRecord r : records) { // keyed by the local server, as both agents key them
                p.send(new ProducerRecord<>(Topics.FLOWS, r.src().getBytes(StandardCharsets.UTF_8),
                        FlowRecordJson.toBytes(r))).get();
            }
        }
    }

    private static FlowRecord tcp(String agent, int n, String src, String dst, int port, long bytes, Long rtt,
                                  long calls) throws Exception {
        String json = "{\"schema\":1,\"agent\":\"" + agent + "\",\"iface\":\"ens3\",\"start\":" + T0 + ",\"end\":"
                + (T0 + 10_000) + ",\"proto\":6,\"src\":\"" + src + "\",\"srcPort\":" + (40_000 + n) + ",\"dst\":\""
                + dst + "\",\"dstPort\":" + port + ",\"bytes\":" + bytes + ",\"packets\":1,\"rbytes\":" + bytes
                + ",\"rpackets\":1,\"frameBytes\":" + bytes + ",\"rframeBytes\":" + bytes
                + ",\"tcpFlags\":24,\"rtcpFlags\":24,\"rttMicros\":" + rtt + ",\"final\":false,\"id\":\"" + agent
                + "-run:" + n + "\"" + (calls == 0 ? "" : ",\"dbCalls\":" + calls + ",\"dbCallMicros\":" + calls * 9_500
                + ",\"dbCallHistogram\":{\"" + CallHistogram.bucketOf(9_500) + "\":" + calls + "}") + "}";
        return FlowRecordJson.parse(json);
    }

    /** {@code r} as {@code agent} recorded it: the same flow, the agent's own id. */
    private static FlowRecord tcp(String agent, FlowRecord r) throws Exception {
        return FlowRecordJson.parse(FlowRecordJson.toJson(r).replace("\"agent\":\"" + r.agent() + "\"",
                "\"agent\":\"" + agent + "\"").replace("\"id\":\"" + r.id() + "\"",
                "\"id\":\"" + agent + "-" + r.id() + "\""));
    }
}
