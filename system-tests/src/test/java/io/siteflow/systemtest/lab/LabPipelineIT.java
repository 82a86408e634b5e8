package io.siteflow.systemtest.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.lab.DbCallTruth;
import io.siteflow.lab.IftopText;
import io.siteflow.lab.LabTopology;
import io.siteflow.lab.LabTruth;
import io.siteflow.lab.Netns;
import io.siteflow.lab.RunSpec;
import io.siteflow.lab.TrafficLab;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.processor.app.ProcessCommand;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.synth.TrafficCategory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The live end-to-end run of the traffic lab: two sites in network namespaces, 6.5 ms apart through the
 * lab's delay bridge; the agent on the router's interface → embedded broker → processor → API, all of them
 * inside the router's namespace (its own loopback), so nothing leaves the namespaces the test made. With a 93%
 * DB mix for wls3 and 80% for wls4 the API says PASS and FAIL, with per-category bytes within 1% of the
 * lab's ground truth; in the same run {@code iftop -t -s N -F} on the same interface gives cumulative
 * per-pair totals that agree with the agent's within iftop's rounding; the lab's database takes 3 ms per round trip,
 * and the verdicts' DB calls (calls, calls/s, call-time p50) agree within 5% with what the lab's clients counted
 * and timed on their own clock (the deviations are printed). Run with one capture worker and with
 * {@code --workers 2} (a PACKET_FANOUT group): the same numbers either way.
 */
class LabPipelineIT {
    private static final int RUN_SECONDS = 10;
    private static final int IFTOP_SECONDS = RUN_SECONDS + 14;
    /** The lab database's time per SQL round trip: a call costs the 6.5 ms RTT + this. */
    private static final Duration DB_SERVICE = Duration.ofMillis(3);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest(name = "--workers {0}")
    @ValueSource(ints = {1, 2})
    void verdictsFromTheLiveLabMatchItsGroundTruthAndIftop(int workers) throws Exception {
        Path root = Path.of(System.getProperty("siteflow.root", "../..")).toAbsolutePath().normalize();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        int port = freePort();
        ProcessCommand processor = new ProcessCommand();
        try (TrafficLab lab = TrafficLab.up("lpit" + ProcessHandle.current().pid() % 1_000_000,
                TrafficLab.DEFAULT_DELAY_NANOS);
                EmbeddedKafkaBroker broker = inRouter(lab, () -> startBroker(lab, dir.resolve("kafka")))) {
            String router = lab.routerNamespace();
            StringWriter processorErr = new StringWriter();
            Future<Integer> processing = pool.submit(() -> Netns.call(router, () -> ProcessCommand.commandLine(processor)
                    .setOut(new PrintWriter(new StringWriter(), true)).setErr(new PrintWriter(processorErr, true))
                    .execute("--bootstrap", broker.bootstrap(), "--sites", root.resolve("deploy/conf/sites.yaml").toString(),
                            "--http-port", Integer.toString(port), "--state-dir", dir.resolve("streams").toString())));
            await("processor running").atMost(Duration.ofMinutes(2)).until(() -> processor.runtime().isPresent());

            Path json = dir.resolve("flows.jsonl");
            StringWriter agentErr = new StringWriter();
            AgentRunner agent = new AgentRunner(agentOptions(lab.agentInterface(), broker.bootstrap(), json, workers),
                    new PrintWriter(new StringWriter(), true), new PrintWriter(agentErr, true));
            Future<Integer> capturing = pool.submit(() -> Netns.call(lab.routerNamespace(), agent::run));
            Path iftopOut = dir.resolve("iftop.txt");
            Path iftopErr = dir.resolve("iftop.err");
            Process iftop = new ProcessBuilder(List.of("ip", "netns", "exec", lab.routerNamespace(), "iftop", "-i",
                    lab.agentInterface(), "-t", "-s", String.valueOf(IFTOP_SECONDS), "-L", "100", "-F",
                    LabTopology.CIDR_R1, "-n", "-N", "-B")).redirectOutput(iftopOut.toFile())
                    .redirectError(iftopErr.toFile()).start();
            LabTruth truth;
            try {
                await("agent and iftop capturing").atMost(Duration.ofSeconds(30))
                        .until(() -> agentErr.toString().contains("capturing on " + lab.agentInterface())
                                && Files.readString(iftopErr).contains("MAC address is"));
                truth = lab.run(RunSpec.of(Duration.ofSeconds(RUN_SECONDS), 0.93).withShare("wls4", 0.80)
                        .withDbServiceTime(DB_SERVICE));
                await("iftop reported").atMost(Duration.ofSeconds(IFTOP_SECONDS + 20))
                        .pollInterval(Duration.ofMillis(500)).until(() -> {
                            lab.nudge();
                            return !iftop.isAlive();
                        });
                await("agent received every packet").atMost(Duration.ofSeconds(20))
                        .until(() -> agent.received() >= truth.packets());
            } finally {
                agent.stop();
                iftop.destroy();
            }
            assertThat(capturing.get(60, TimeUnit.SECONDS)).as(agentErr.toString()).isZero();

            // the agent's records: the same totals per pair as iftop's cumulative column, within its rounding
            Map<String, long[]> agentPairs = pairs(Files.readAllLines(json));
            Map<String, IftopText.Total> iftopPairs = IftopText.cumulative(Files.readString(iftopOut));
            assertThat(iftopPairs.keySet()).isEqualTo(agentPairs.keySet());
            agentPairs.forEach((pair, c) -> assertThat(iftopPairs.get(pair).agrees(c[1]))
                    .as("%s: agent %d, iftop %s", pair, c[1], iftopPairs.get(pair)).isTrue());

            // the processor's verdicts, once every record has been counted
            HttpClient http = inRouter(lab, HttpClient::newHttpClient);
            Map<String, JsonNode> verdicts = new HashMap<>();
            long[] last = {-1};
            await("verdicts settle").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                    .until(() -> {
                        verdicts.clear();
                        verdicts.putAll(inRouter(lab, () -> verdicts(http, port)));
                        if (!verdicts.containsKey("wls3") || !verdicts.containsKey("wls4")) {
                            return false;
                        }
                        long now = crossBytes(verdicts.get("wls3")) + crossBytes(verdicts.get("wls4"));
                        boolean settled = now == last[0] && now > 0;
                        last[0] = now;
                        return settled;
                    });
            assertThat(crossBytes(verdicts.get("wls3"))).as("wls3 cross bytes: %s", verdicts.get("wls3"))
                    .isEqualTo(agentCross(agentPairs, "10.2.0.20"));
            assertThat(crossBytes(verdicts.get("wls4"))).as("wls4 cross bytes: %s", verdicts.get("wls4"))
                    .isEqualTo(agentCross(agentPairs, "10.2.0.21"));
            assertThat(verdicts.get("wls3").path("verdict").asText()).isEqualTo("PASS");
            assertThat(verdicts.get("wls4").path("verdict").asText()).isEqualTo("FAIL");
            for (String host : List.of("wls3", "wls4")) {
                JsonNode categories = verdicts.get(host).path("categories");
                for (Map.Entry<TrafficCategory, Long> e : truth.categories(host).entrySet()) {
                    long expected = e.getValue();
                    long actual = categories.path(e.getKey().name()).asLong();
                    assertThat((double) actual).as("%s %s", host, e.getKey())
                            .isCloseTo(expected, org.assertj.core.data.Percentage.withPercentage(1));
                }
                assertDbCallsAsTheLabCountedAndTimedThem(host, verdicts.get(host).path("dbCalls"),
                        truth.dbCalls().get(verdicts.get(host).path("server").asText()), workers);
            }
        } finally {
            processor.stop();
            pool.shutdown();
            pool.awaitTermination(60, TimeUnit.SECONDS);
        }
    }

    /**
     * The verdict's DB calls (the agent's count and clock, at the router) against the lab's (its client's count
     * and clock): calls, calls per second and call-time p50 within 5%, as the issue asks; the deviations go to
     * the report line.
     */
    private static void assertDbCallsAsTheLabCountedAndTimedThem(String host, JsonNode d, DbCallTruth lab,
                                                                 int workers) {
        long calls = d.path("calls").asLong();
        double perSecond = d.path("callsPerSecond").asDouble();
        long p50 = d.path("callMicros").path("p50").asLong();
        System.out.printf("LabPipelineIT --workers %d %s DB calls: agent %d lab %d (%+.2f%%), calls/s agent %.2f lab %.2f"
                + " (%+.2f%%), call p50 agent %d us lab %d us (%+.2f%%), service time %d ms, RTT %d us%n", workers, host,
                calls, lab.calls(), deviation(calls, lab.calls()), perSecond, lab.callsPerSecond(),
                deviation(perSecond, lab.callsPerSecond()), p50, lab.p50Micros(), deviation(p50, lab.p50Micros()),
                DB_SERVICE.toMillis(), d.path("rttMicros").asLong());
        assertThat(lab.calls()).as("%s: lab calls", host).isGreaterThan(20); // more than the pool's 20 CONNECTs
        assertThat((double) calls).as("%s calls", host).isCloseTo(lab.calls(), Percentage.withPercentage(5));
        assertThat(perSecond).as("%s calls/s", host).isCloseTo(lab.callsPerSecond(), Percentage.withPercentage(5));
        assertThat((double) p50).as("%s call p50", host).isCloseTo(lab.p50Micros(), Percentage.withPercentage(5));
    }

    private static double deviation(double measured, double truth) {
        return truth == 0 ? 0 : (measured - truth) * 100 / truth;
    }

    private static EmbeddedKafkaBroker startBroker(TrafficLab lab, Path data) throws Exception {
        new ProcessBuilder("ip", "netns", "exec", lab.routerNamespace(), "ip", "link", "set", "lo", "up")
                .inheritIO().start().waitFor();
        EmbeddedKafkaBroker b = EmbeddedKafkaBroker.builder(data).build();
        b.start();
        return b;
    }

    /** Runs a task on a thread inside the router's namespace (threads it starts stay there too). */
    private static <T> T inRouter(TrafficLab lab, java.util.concurrent.Callable<T> task) throws Exception {
        return Netns.call(lab.routerNamespace(), task);
    }

    private static CaptureOptions agentOptions(String iface, String bootstrap, Path json, int workers) {
        return CaptureOptions.builder().iface(iface).remoteCidr(LabTopology.CIDR_R1).agent("region2-edge")
                .bootstrap(bootstrap).json(json.toString()).spoolDir(json.resolveSibling("spool")).spoolMaxMb(64)
                .workers(workers).build();
    }

    private static Map<String, long[]> pairs(List<String> lines) throws Exception {
        Map<String, long[]> m = new TreeMap<>();
        for (String line : lines) {
            FlowRecord r = FlowRecordJson.parse(line);
            String pair = r.src().compareTo(r.dst()) <= 0 ? r.src() + " " + r.dst() : r.dst() + " " + r.src();
            long[] c = m.computeIfAbsent(pair, k -> new long[2]);
            c[0] += r.totalPackets();
            c[1] += r.totalBytes();
        }
        return m;
    }

    private static long agentCross(Map<String, long[]> pairs, String server) {
        return pairs.entrySet().stream().filter(e -> List.of(e.getKey().split(" ")).contains(server))
                .mapToLong(e -> e.getValue()[1]).sum();
    }

    private static long crossBytes(JsonNode verdict) {
        return verdict.path("crossBytes").asLong();
    }

    private static Map<String, JsonNode> verdicts(HttpClient http, int port) throws Exception {
        Map<String, JsonNode> out = new HashMap<>();
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/api/verdicts")).timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
            JsonNode body = JSON.readTree(r.body());
            for (JsonNode v : body.isArray() ? body : body.path("verdicts")) {
                out.put(v.path("name").asText(), v);
            }
        }
        return out;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
